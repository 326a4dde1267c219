import Dispatch
import Foundation

/// The context used by every method whose context argument is omitted.
///
/// Follows BrightFutures' default threading model:
/// - called on the main thread, it returns the main queue's context;
/// - called on any other thread, it returns a global (`.default` QoS) queue's context.
///
/// The rule can be replaced for the whole process with ``DefaultExecutionContext/setProcessDefault(_:)``
/// or for one task tree (ideal for tests) with ``DefaultExecutionContext/withDefault(_:operation:)-(_,()->R)``.
/// A task-local override wins over the process-wide one.
public func defaultContext() -> ExecutionContext {
    DefaultExecutionContext.current
}

/// Controls which context ``defaultContext()`` returns.
public enum DefaultExecutionContext {
    /// A task-local override, set with ``withDefault(_:operation:)-(_,()->R)``.
    @TaskLocal
    static var taskOverride: ExecutionContext?

    private static let processOverride = LockedBox<ExecutionContext?>(nil)

    /// The context ``defaultContext()`` returns on this thread, in this task, right now.
    public static var current: ExecutionContext {
        if let override = taskOverride {
            return override
        }
        if let override = processOverride.value {
            return override
        }
        return threadingModel(isMainThread: Thread.isMainThread)
    }

    /// BrightFutures' rule: the main queue for the main thread, a global queue for any other thread.
    static func threadingModel(isMainThread: Bool) -> ExecutionContext {
        isMainThread ? mainQueueContext : globalQueueContext
    }

    /// Replaces the default context for the whole process; pass `nil` to restore BrightFutures' rule.
    ///
    /// For example `DefaultExecutionContext.setProcessDefault(immediateExecutionContext)` makes every
    /// call that omits a context run its closure synchronously on the completing thread.
    ///
    /// The replaced context is released after the library's lock, on the calling thread: what it captured
    /// may read ``defaultContext()``, or set it again, from its `deinit`.
    public static func setProcessDefault(_ context: ExecutionContext?) {
        processOverride.value = context
    }

    /// Runs `operation` with `context` as the default for it and every task it creates (a task-local).
    public static func withDefault<R>(_ context: ExecutionContext, operation: () throws -> R) rethrows -> R {
        try $taskOverride.withValue(context, operation: operation)
    }

    /// Runs the async `operation` with `context` as the default for it and every child task it creates.
    public static func withDefault<R>(
        _ context: ExecutionContext,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await $taskOverride.withValue(context, operation: operation, isolation: isolation)
    }
}

let mainQueueContext = ExecutionContext(queue: .main)
let globalQueueContext = ExecutionContext(queue: .global())
