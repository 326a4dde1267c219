import Dispatch

extension DispatchSemaphore {
    /// An execution context that waits on this semaphore, runs the task on the calling thread, then
    /// signals it.
    ///
    /// With a semaphore of value 1 this serialises tasks with any other code that holds the semaphore.
    /// The calling thread blocks while the semaphore is held: never use it where the holder waits for
    /// this thread (a deadlock, as with any semaphore), and never on the main thread in UI code.
    ///
    /// The calling thread is the one that hands a future's callbacks out as it completes (or that
    /// registers on a completed future). While it waits here it hands out nothing else: that future's
    /// callbacks handed out after this one, its immediate callbacks, and callbacks registered on other
    /// contexts during the hand-out wait until the semaphore is free (GUARANTEES.md G4 names this
    /// exception). To keep other contexts free of it, register on a queue and wait on the semaphore
    /// inside the callback.
    public var context: ExecutionContext {
        ExecutionContext { [self] task in
            self.wait()
            task()
            self.signal()
        }
    }
}
