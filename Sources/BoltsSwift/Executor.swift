import Dispatch
import Foundation
import Futures

/// Where a continuation runs (Bolts-Swift's `Executor`): each case is one of the library's execution
/// contexts (``context``).
///
/// An executor decides only *where* a closure runs, never *whether*: a task's continuation runs once its
/// task completes, handed to its executor.
///
/// ```swift
/// fetch(object).continueWith(Executor.mainThread) { task in
///     // runs on the main thread
/// }
/// ```
public enum Executor: Sendable {
    /// Runs the closure at once, on the calling thread, until 20 such closures are nested on this
    /// thread's stack; deeper, it hands the closure to a global dispatch queue (the library's
    /// `maxStackDepthExecutionContext`).
    case `default`

    /// Runs the closure at once, on the calling thread: a continuation runs on the thread that completed
    /// its task, or on the thread that added it to a completed task. Stack-safe: the library runs long
    /// chains of immediate continuations on a per-thread trampoline.
    case immediate

    /// Runs the closure on the main thread: at once if already on it, otherwise asynchronously on the main
    /// queue.
    case mainThread

    /// Runs the closure asynchronously on a dispatch queue.
    case queue(DispatchQueue)

    /// Adds the closure to an operation queue as an operation.
    case operationQueue(OperationQueue)

    /// Passes the closure to your closure, which must call it before it returns.
    case closure(@Sendable (() -> Void) -> Void)

    /// Passes the closure to your closure, which must call it exactly once, at any time, on any thread.
    case escapingClosure(@Sendable (@escaping @Sendable () -> Void) -> Void)

    /// The library's execution context for this executor, to use this executor with `Future`s.
    @inlinable
    public var context: ExecutionContext {
        switch self {
        case .default: maxStackDepthExecutionContext
        case .immediate: .immediate
        case .mainThread: immediateOnMainExecutionContext
        case .queue(let queue): ExecutionContext(queue: queue)
        case .operationQueue(let operationQueue): operationQueue.context
        case .closure(let run): ExecutionContext { work in run(work) }
        case .escapingClosure(let run): ExecutionContext(run)
        }
    }

    /// Whether this is ``immediate``, without building its context: the continuations' fast path asks.
    @inlinable
    var isImmediate: Bool {
        if case .immediate = self { return true }
        return false
    }

    /// Runs `closure` on this executor.
    public func execute(_ closure: @escaping @Sendable () -> Void) {
        context.execute(closure)
    }
}

extension Executor: CustomStringConvertible, CustomDebugStringConvertible {
    /// The kind of executor, for example `Default Executor` or `Executor with dispatch_queue`.
    public var description: String {
        switch self {
        case .default: "Default Executor"
        case .immediate: "Immediate Executor"
        case .mainThread: "MainThread Executor"
        case .queue: "Executor with dispatch_queue"
        case .operationQueue: "Executor with NSOperationQueue"
        case .closure: "Executor with custom closure"
        case .escapingClosure: "Executor with custom escaping closure"
        }
    }

    /// ``description``, followed by the queue or closure for the executors that have one.
    public var debugDescription: String {
        switch self {
        case .queue(let queue): "\(description): \(queue)"
        case .operationQueue(let queue): "\(description): \(queue)"
        case .closure(let closure): "\(description): \(String(describing: closure))"
        case .escapingClosure(let closure): "\(description): \(String(describing: closure))"
        default: description
        }
    }
}
