import Foundation

extension OperationQueue {
    /// An execution context that adds each task to this queue as a block operation.
    ///
    /// ## Work that never runs
    /// Callbacks of one future run one at a time, so a callback's task must run for the callbacks
    /// registered after it (on the same future) to get their turn. The outcomes are defined:
    /// - **The queue is released**: cannot drop work. Unlike BrightFutures (which captured the queue
    ///   weakly and silently dropped the task), this context holds the queue strongly (the pending task
    ///   keeps the context, the context keeps the queue), so a queue released by its owner still runs the
    ///   callbacks.
    /// - **The queue is suspended** (`isSuspended = true`): the task and every callback behind it on the
    ///   same future wait until it is resumed; if it never is, they never run. Nothing crashes, the future
    ///   itself stays completed, `get()` and `forced()` still return (they do not wait for callbacks).
    /// - **`cancelAllOperations()`** before the task started: Foundation does not run a cancelled block
    ///   operation, so that callback and the ones behind it on the same future never run.
    public var context: ExecutionContext {
        ExecutionContext { [self] task in
            self.addOperation(task)
        }
    }
}
