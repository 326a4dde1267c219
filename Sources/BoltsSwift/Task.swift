import Foundation
import Futures

/// The result of an asynchronous operation (Bolts-Swift's `Task`): pending, then completed with a
/// ``result``, faulted with an ``error``, or ``cancelled``.
///
/// A task is a thin face over the library's core cell: it holds a `Future<TResult, any Error>`
/// (``future``), where cancellation is the failure `FuturesError.cancelled`. Tasks are objects: a
/// continuation receives the very task it was added to (`task === initialTask`).
///
/// ```swift
/// save(object).continueWith { task in
///     if task.cancelled {
///         // Save was cancelled
///     } else if task.faulted {
///         // Save failed
///     } else {
///         // Object was successfully saved
///         let result = task.result
///     }
/// }
/// ```
///
/// A task does not retain the tasks it was continued from, and releases each continuation closure (and
/// what it captured) once it has run.
public final class Task<TResult: Sendable>: Sendable {
    /// A closure run when a task completes.
    public typealias Continuation = @Sendable () -> Void

    /// The core cell: this task as a future. Cancelled ⇄ failed with `FuturesError.cancelled`.
    public let future: Future<TResult, any Error>

    /// Views `future` as a task (no copy: the task and the future are the same cell). A failure with
    /// `FuturesError.cancelled` or Swift's `CancellationError` reads as cancelled.
    @inlinable
    public init(future: Future<TResult, any Error>) {
        self.future = future
    }

    /// Creates a task that has already succeeded with `result`.
    @inlinable
    public init(_ result: TResult) {
        self.future = Future(value: result)
    }

    /// Creates a task that has already faulted with `error`.
    @inlinable
    public init(error: any Error) {
        self.future = Future(error: error)
    }

    /// Creates a task with the outcome of `closure`, run on `executor`.
    ///
    /// - Parameters:
    ///   - executor: Where `closure` runs; ``Executor/default`` (at once, on this thread) if omitted.
    ///   - closure: Returns the result, or throws to fault the task (``CancelledError`` cancels it).
    public convenience init(_ executor: Executor = .default, closure: @escaping @Sendable () throws -> TResult) {
        self.init(future: Task<Void>(()).continueWith(executor) { _ in try closure() }.future)
    }

    /// A task that is already cancelled.
    public static func cancelledTask() -> Task<TResult> {
        Task(future: Future(error: FuturesError.cancelled))
    }

    /// A task with the outcome of `closure`, run on `executor` (same as ``init(_:closure:)``).
    public static func execute(
        _ executor: Executor = .default,
        closure: @escaping @Sendable () throws -> TResult
    ) -> Task<TResult> {
        Task(executor, closure: closure)
    }

    /// A task that completes when the task `closure` returns does; `closure` runs on `executor`.
    ///
    /// - Parameters:
    ///   - executor: Where `closure` runs; ``Executor/default`` if omitted.
    ///   - closure: Returns the task to follow, or throws to fault the task (``CancelledError`` cancels it).
    public static func executeWithTask(
        _ executor: Executor = .default,
        closure: @escaping @Sendable () throws -> Task<TResult>
    ) -> Task<TResult> {
        Task<Void>(()).continueWithTask(executor) { _ in try closure() }
    }

    // MARK: - State

    /// Whether the task has completed: succeeded, faulted or been cancelled.
    @inlinable
    public var completed: Bool {
        future.isCompleted
    }

    /// Whether the task has faulted with an ``error`` (a cancelled task has not).
    @inlinable
    public var faulted: Bool {
        error != nil
    }

    /// Whether the task has been cancelled.
    @inlinable
    public var cancelled: Bool {
        guard let error = future.error else { return false }
        return isCancellationError(error)
    }

    /// The result of a task that succeeded; `nil` while pending, and when faulted or cancelled.
    @inlinable
    public var result: TResult? {
        future.value
    }

    /// The error of a task that faulted; `nil` while pending, on success, and when cancelled.
    @inlinable
    public var error: (any Error)? {
        guard let error = future.error, !isCancellationError(error) else { return nil }
        return error
    }

    // MARK: - Waiting

    /// Blocks the calling thread until the task completes. On the main thread it first prints a warning,
    /// as Bolts-Swift does.
    ///
    /// Deadlocks if the task can only complete through the blocked thread itself (for example waiting on
    /// the main thread for a continuation on ``Executor/mainThread``). In async code, prefer
    /// `try await task.future.get()`.
    public func waitUntilCompleted() {
        if Thread.isMainThread {
            debugPrint("Warning: A long-running operation is being executed on the main thread waiting on \(self).")
        }
        _ = future.forced()
    }
}

extension Task: CustomStringConvertible, CustomDebugStringConvertible {
    /// The state as Bolts-Swift prints it: `Task: pending`, `Task: success(5)`, `Task: error(…)` or
    /// `Task: cancelled`.
    public var description: String {
        guard let result = future.result else { return "Task: pending" }
        switch result {
        case .success(let value): return "Task: success(\(String(reflecting: value)))"
        case .failure(let error) where isCancellationError(error): return "Task: cancelled"
        case .failure(let error): return "Task: error(\(String(reflecting: error)))"
        }
    }

    /// Same as ``description``.
    public var debugDescription: String {
        description
    }
}
