import Foundation
import Futures

/// The result of an asynchronous operation (Bolts-Swift's `Task`): pending, then completed with a
/// ``result``, faulted with an ``error``, or ``cancelled``.
///
/// A task is the library's core cell itself: `Task<TResult>` is a subclass of
/// `Future<TResult, any Error>`, where cancellation is the failure `FuturesError.cancelled`. Making a task
/// costs one object, as making a core future does, and every continuation is a core derivation step.
/// Tasks are objects: a continuation receives the very task it was added to (`task === initialTask`).
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
/// A task releases each continuation closure (and what it captured) once it has run. A pending
/// continuation whose closure receives the task holds that task until it runs; every task completes
/// (a task of a dropped ``TaskCompletionSource`` faults with `FuturesError.brokenPromise`, and so does one
/// made with ``init(future:)`` over a future that is dropped before it completes), so nothing is kept
/// for ever.
public class Task<TResult: Sendable>: Future<TResult, any Error>, @unchecked Sendable {
    // Every member is `final` (or in an extension): a subclass only carries a continuation's step, and a
    // read such as `task.result` must be a direct, specialised call, not a class-table dispatch to the
    // unspecialised getter (1,900 instructions per W1 operation).
    //
    // `@unchecked Sendable`: a task adds no stored property to its cell, so all its state is the
    // `Future`'s, whose own proof (in Future.swift: every mutable field under the cell's lock, a settled
    // success read after an acquiring load) covers it.
    /// A closure run when a task completes.
    public typealias Continuation = @Sendable () -> Void

    /// A pending task: the cell a derivation or a completion source completes.
    @inlinable
    init(pending: Void) {
        super.init(cell: nil)
    }

    /// A task completed with `result`.
    @inlinable
    init(completed result: Result<TResult, any Error>) {
        super.init(cell: result)
    }

    /// This task as a core future (the same object). Cancelled ⇄ failed with `FuturesError.cancelled`.
    @inlinable
    public final var future: Future<TResult, any Error> {
        self
    }

    /// A task with `future`'s outcome, as one consumer of it (a cancellation request on the task is this
    /// consumer's ask, GUARANTEES.md G8). A failure with `FuturesError.cancelled` or Swift's
    /// `CancellationError` reads as cancelled. If `future` is dropped before it completes, the task faults
    /// with `FuturesError.brokenPromise`, so that its continuations run and are released.
    public convenience init(future: Future<TResult, any Error>) {
        self.init(pending: ())
        if let result = future.ifCompleted({ $0 }) {
            complete(result)
            return
        }
        let follower = Follower(self)
        depend(upon: future, immediateExecutionContext) { result in follower.task.complete(result) }
    }

    /// Creates a task that has already succeeded with `result`.
    @inlinable
    public convenience init(_ result: TResult) {
        self.init(completed: .success(result))
    }

    /// Creates a task that has already faulted with `error`.
    @inlinable
    public convenience init(error: any Error) {
        self.init(completed: .failure(error))
    }

    /// Creates a task with the outcome of `closure`, run on `executor`.
    ///
    /// - Parameters:
    ///   - executor: Where `closure` runs; ``Executor/default`` (at once, on this thread) if omitted.
    ///   - closure: Returns the result, or throws to fault the task (``CancelledError`` cancels it).
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public convenience init(
        _ executor: Executor = .default,
        closure: @escaping @Sendable () throws -> TResult,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(pending: ())
        derive(after: succeededVoidTask, executor.context, step: "Task", file: file, line: line) { [self] _ in
            complete(settle { try closure() })
        }
    }

    /// A task that `resolver` completes: the core's `Future(resolver:)`, which every subclass of the
    /// core's future provides (BrightFutures' `AsyncType` requires it).
    ///
    /// `resolver` runs at once, on this thread; `complete` may be called from any thread, the first call
    /// wins and a later one is reported as `FuturesDiagnostic.futureCompletedTwice`. A
    /// `CancelledError` or `FuturesError.cancelled` failure makes the task cancelled, any other a fault.
    @_disfavoredOverload
    public required convenience init(
        resolver: (_ complete: @escaping @Sendable (Result<TResult, any Error>) -> Void) -> Void
    ) {
        self.init(pending: ())
        resolve(resolver)
    }

    /// The body of ``init(resolver:)``, and of every continuation task's (a subclass of `Future` must
    /// provide it; the face never makes a continuation this way): `resolver` completes this task, and a
    /// second completion is reported as `FuturesDiagnostic.futureCompletedTwice`.
    @usableFromInline
    final func resolve(_ resolver: (_ complete: @escaping @Sendable (Result<TResult, any Error>) -> Void) -> Void) {
        resolver { [self] result in
            if !complete(result) {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(#fileID)", line: #line))
            }
        }
    }

    /// A task that is already cancelled.
    public static func cancelledTask() -> Task<TResult> {
        Task(completed: .failure(FuturesError.cancelled))
    }

    /// A task with the outcome of `closure`, run on `executor` (same as ``init(_:closure:file:line:)``).
    ///
    /// - Parameters:
    ///   - executor: Where `closure` runs; ``Executor/default`` if omitted.
    ///   - closure: Returns the result, or throws to fault the task (``CancelledError`` cancels it).
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public static func execute(
        _ executor: Executor = .default,
        closure: @escaping @Sendable () throws -> TResult,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<TResult> {
        Task(executor, closure: closure, file: file, line: line)
    }

    /// A task that completes when the task `closure` returns does; `closure` runs on `executor`.
    ///
    /// - Parameters:
    ///   - executor: Where `closure` runs; ``Executor/default`` if omitted.
    ///   - closure: Returns the task to follow, or throws to fault the task (``CancelledError`` cancels it).
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public static func executeWithTask(
        _ executor: Executor = .default,
        closure: @escaping @Sendable () throws -> Task<TResult>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<TResult> {
        succeededVoidTask.continued(
            OnSuccess<Void, TResult>.self, { _ in try closure() }, executor, "executeWithTask", file, line)
    }

    // MARK: - State

    /// Whether the task has completed: succeeded, faulted or been cancelled.
    @inlinable
    public final var completed: Bool {
        isCompleted
    }

    /// Whether the task has faulted with an ``error`` (a cancelled task has not).
    @inlinable
    public final var faulted: Bool {
        error != nil
    }

    /// Whether the task has been cancelled.
    @inlinable
    public final var cancelled: Bool {
        guard case .failure(let error) = _outcome else { return false }
        return isCancellationError(error)
    }

    /// The result of a task that succeeded; `nil` while pending, and when faulted or cancelled.
    @inlinable
    public final var result: TResult? {
        value
    }

    /// The error of a task that faulted; `nil` while pending, on success, and when cancelled.
    @inlinable
    public final var error: (any Error)? {
        guard case .failure(let error) = _outcome, !isCancellationError(error) else { return nil }
        return error
    }

    // MARK: - Waiting

    /// Blocks the calling thread until the task completes. On the main thread it first prints a warning,
    /// as Bolts-Swift does.
    ///
    /// Deadlocks if the task can only complete through the blocked thread itself (for example waiting on
    /// the main thread for a continuation on ``Executor/mainThread``). In async code, prefer
    /// `try await task.get()`.
    public final func waitUntilCompleted() {
        if Thread.isMainThread {
            debugPrint("Warning: A long-running operation is being executed on the main thread waiting on \(self).")
        }
        _ = forced()
    }

    // MARK: - Description

    /// The state as Bolts-Swift prints it: `Task: pending`, `Task: success(5)`, `Task: error(…)` or
    /// `Task: cancelled`. (`debugDescription` is the same.)
    override public var description: String {
        guard let result = _outcome else { return "Task: pending" }
        switch result {
        case .success(let value): return "Task: success(\(String(reflecting: value)))"
        case .failure(let error) where isCancellationError(error): return "Task: cancelled"
        case .failure(let error): return "Task: error(\(String(reflecting: error)))"
        }
    }
}

/// What a task made with ``Task/init(future:)`` registers on the future it follows: when the future is
/// dropped while pending, its callbacks are released with this object, whose `deinit` then faults the
/// task with `FuturesError.brokenPromise` (nothing else could complete it). After a normal completion the
/// `deinit` finds the task completed and changes nothing.
final class Follower<TResult: Sendable>: Sendable {
    let task: Task<TResult>

    init(_ task: Task<TResult>) {
        self.task = task
    }

    deinit {
        task.complete(.failure(FuturesError.brokenPromise))
    }
}
