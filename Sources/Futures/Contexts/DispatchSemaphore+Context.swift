import Dispatch

extension DispatchSemaphore {
    /// An execution context that waits on this semaphore, runs the task on the calling thread, then
    /// signals it.
    ///
    /// With a semaphore of value 1 this serialises tasks with any other code that holds the semaphore.
    /// The calling thread blocks while the semaphore is held: never use it where the holder waits for
    /// this thread (a deadlock, as with any semaphore), and never on the main thread in UI code.
    public var context: ExecutionContext {
        ExecutionContext { [self] task in
            self.wait()
            task()
            self.signal()
        }
    }
}
