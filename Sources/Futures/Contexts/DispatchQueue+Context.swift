import Dispatch

extension DispatchQueue {
    /// An execution context that runs each task asynchronously on this queue (`async(execute:)`).
    ///
    /// `DispatchQueue.main.context` runs callbacks on the main thread. The context holds the queue
    /// strongly, so work handed to it is never dropped; a suspended queue delays the task (and the
    /// callbacks registered after it on the same future) until it is resumed.
    public var context: ExecutionContext {
        ExecutionContext(queue: self)
    }
}
