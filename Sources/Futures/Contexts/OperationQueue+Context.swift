import Foundation

extension OperationQueue {
    /// An execution context that adds each task to this queue as a block operation.
    ///
    /// ## Work that never runs
    /// A callback never waits for one on another context, so work that never runs here loses only the
    /// callbacks given to this queue. The outcomes are defined:
    /// - **The queue is released**: cannot drop work. Unlike BrightFutures (which captured the queue
    ///   weakly and silently dropped the task), this context holds the queue strongly (the pending task
    ///   keeps the context, the context keeps the queue), so a queue released by its owner still runs the
    ///   callbacks.
    /// - **The queue is suspended** (`isSuspended = true`): the callbacks given to it wait until it is
    ///   resumed; if it never is, they never run. Callbacks on other contexts run normally; nothing
    ///   crashes, `get()` and `forced()` still return (they do not wait for callbacks).
    /// - **`cancelAllOperations()`** before the task started: Foundation does not run a cancelled block
    ///   operation, so that callback never runs; the others are not affected.
    public var context: ExecutionContext {
        ExecutionContext { [self] task in
            self.addOperation(task)
        }
    }
}
