import Dispatch
import Foundation
import Futures

/// Where a Bolts continuation runs: Bolts' `BFExecutor`, built on `ExecutionContext`.
///
/// An executor only decides *where* a block runs; cancellation tokens decide *whether*.
///
/// ```swift
/// task.continueWith(executor: .mainThread) { task in
///     label.text = task.result
/// }
/// ```
public struct BFExecutor: Sendable {
    /// The context that runs the blocks.
    public let context: ExecutionContext

    /// Wraps an execution context of the library (`BFExecutor(context: immediateExecutionContext)`).
    public init(context: ExecutionContext) {
        self.context = context
    }

    /// Bolts' `executorWithBlock:`: `block` receives each continuation and must run it exactly once,
    /// on any thread (for example by dispatching it to a queue of its choice).
    public init(block: @escaping @Sendable (_ continuation: @escaping @Sendable () -> Void) -> Void) {
        self.context = ExecutionContext(block)
    }

    /// Runs blocks asynchronously on `dispatchQueue` (Bolts' `executorWithDispatchQueue:`).
    public init(dispatchQueue: DispatchQueue) {
        self.context = ExecutionContext(queue: dispatchQueue)
    }

    /// Runs blocks as operations added to `operationQueue` (Bolts' `executorWithOperationQueue:`).
    ///
    /// The queue's `maxConcurrentOperationCount` and suspension apply. Do not cancel the queue's
    /// operations: a dropped block would stall the callbacks queued behind it on the same task.
    public init(operationQueue: OperationQueue) {
        self.context = operationQueue.context
    }

    /// Bolts' default executor: runs the block at once, on the thread that completed the task (or
    /// that added the continuation), until ``maxInlineDepth`` such blocks are nested on this thread's
    /// stack; deeper, it hops to a global dispatch queue, so long synchronous chains cannot overflow
    /// the stack. It is the library's `maxStackDepthExecutionContext`.
    public static let `default` = BFExecutor(context: maxStackDepthExecutionContext)

    /// How many blocks ``default`` nests on one thread before it hops to a queue (20, as in Bolts);
    /// shared with `maxStackDepthExecutionContext`, which ``default`` is.
    public static var maxInlineDepth: Int { maxStackDepthExecutionContextLimit }

    /// Runs every block at once, on the calling thread (Bolts' `immediateExecutor`). Stack-safe: the
    /// library trampolines long chains of immediate continuations.
    public static let immediate = BFExecutor(context: immediateExecutionContext)

    /// Runs blocks on the main thread: at once if already on it, otherwise asynchronously on the main
    /// queue (Bolts' `mainThreadExecutor`). It is the library's `immediateOnMainExecutionContext`.
    public static let mainThread = BFExecutor(context: immediateOnMainExecutionContext)

    /// Runs `block` on this executor.
    public func execute(_ block: @escaping @Sendable () -> Void) {
        context.execute(block)
    }
}
