import Dispatch

/// SimpleFutures' name for an execution context that runs tasks on a ``Queue``.
///
/// In this library every context is an ``ExecutionContext`` value, so `QueueContext` is another name
/// for it and SimpleFutures call sites keep compiling:
///
/// ```swift
/// future.onSuccess(context: QueueContext.main) { value in … }
/// let context = QueueContext(queue: Queue("us.gnos.work"))
/// ```
package typealias QueueContext = ExecutionContext

extension ExecutionContext {
    /// Runs tasks asynchronously on the main queue (SimpleFutures' `QueueContext.main`).
    public static let main = ExecutionContext(queue: DispatchQueue.main)

    /// Runs tasks asynchronously on the global default-QoS queue (SimpleFutures' `QueueContext.global`).
    public static let global = ExecutionContext(queue: DispatchQueue.global())

    /// Creates a context that runs tasks asynchronously on `queue` (SimpleFutures' `QueueContext(queue:)`).
    ///
    /// Disfavoured so that `ExecutionContext(queue: .main)` keeps meaning `DispatchQueue.main`.
    @_disfavoredOverload
    public init(queue: Queue) {
        self.init(queue: queue.queue)
    }

    /// The context SimpleFutures-style methods use when their `context:` argument is omitted.
    ///
    /// Reading it returns ``defaultContext()``: the main queue when called on the main thread, else a
    /// global queue (SimpleFutures always used the main queue; see the migration guide). Setting it
    /// replaces the default for the whole process, exactly like
    /// ``DefaultExecutionContext/setProcessDefault(_:)``, so SimpleFutures' idiom
    /// `QueueContext.futuresDefault = QueueContext.main` restores its old rule, and
    /// `QueueContext.futuresDefault = ImmediateContext()` runs everything inline.
    public static var futuresDefault: ExecutionContext {
        get { defaultContext() }
        set { DefaultExecutionContext.setProcessDefault(newValue) }
    }
}

/// SimpleFutures' immediate context: runs every task synchronously on the calling thread.
///
/// Returns ``immediateExecutionContext``; handy in tests, where callbacks then run before the call
/// that completes a future returns.
package func ImmediateContext() -> ExecutionContext {
    immediateExecutionContext
}
