import Futures

/// Bolts' `BFTask`: the result of an asynchronous operation, with three terminal states —
/// succeeded with a ``result``, faulted with an ``error``, or ``isCancelled``.
///
/// A task is a thin face over the library's core cell: it *is* a `Future<T, any Error>` (see
/// ``future``), where cancellation is stored as the failure `FuturesError.cancelled`. An
/// error that means cancellation (`FuturesError.cancelled` or Swift's `CancellationError`) reads
/// as cancelled, never as faulted. So `BFTask(future)` and `Future(task)` are free, and everything
/// the library does for futures (stack safety, ordering, memory, cancellation requests) holds here.
///
/// ```swift
/// saveAsync(object).continueWith { task in
///     if task.isCancelled {
///         // the save was cancelled.
///     } else if let error = task.error {
///         // the save failed.
///     } else {
///         // the object was saved successfully.
///     }
/// }
/// ```
///
/// Tasks are values; copies share the same underlying cell. A task does not retain the tasks it
/// was continued from, and releases its continuation blocks as soon as they have run.
public struct BFTask<T: Sendable>: Sendable {
    /// The core cell: this task as a future. Cancelled ⇄ failed with `FuturesError.cancelled`.
    public let future: Future<T, any Error>

    @inlinable
    init(future: Future<T, any Error>) {
        self.future = future
    }

    /// Creates a task that has already succeeded with `result` (Bolts' `taskWithResult:`).
    @inlinable
    public init(result: T) {
        self.future = Future(value: result)
    }

    /// Creates a task that has already faulted with `error` (Bolts' `taskWithError:`); a cancellation
    /// error gives a cancelled task.
    @inlinable
    public init(error: any Error) {
        self.future = Future(error: error)
    }

    /// A task that is already cancelled (Bolts' `cancelledTask`).
    public static func cancelled() -> BFTask<T> {
        BFTask(future: Future(error: FuturesError.cancelled))
    }

    // MARK: - State

    /// The value, if the task succeeded; otherwise `nil`.
    @inlinable
    public var result: T? {
        future.value
    }

    /// The error, if the task faulted; `nil` while pending, on success, and when cancelled.
    @inlinable
    public var error: (any Error)? {
        guard let error = future.error, !isCancellationError(error) else { return nil }
        return error
    }

    /// `true` if the task was cancelled.
    @inlinable
    public var isCancelled: Bool {
        guard let error = future.error else { return false }
        return isCancellationError(error)
    }

    /// `true` if the task failed with an error (not cancellation).
    @inlinable
    public var isFaulted: Bool {
        error != nil
    }

    /// `true` once the task has succeeded, faulted or been cancelled.
    @inlinable
    public var isCompleted: Bool {
        future.isCompleted
    }

    // MARK: - Waiting

    /// Blocks the calling thread until the task completes (Bolts' `waitUntilFinished`).
    ///
    /// Deadlocks if the task can only complete through the blocked thread itself (for example waiting
    /// on the main thread for a continuation on ``BFExecutor/mainThread``). Prefer ``get()`` in async code.
    public func waitUntilFinished() {
        _ = future.forced()
    }

    /// Waits without blocking a thread; returns the result, or throws the error, or throws
    /// `FuturesError.cancelled` if the task was cancelled. Ignores cancellation of the awaiting
    /// Swift task, as `Future.get()` does.
    public func get() async throws -> T {
        try await future.get()
    }

    /// Waits like ``get()`` and reacts to cancellation of the awaiting Swift task as `policy` says (see
    /// `Future.get(onTaskCancellation:)`): `.stopWaiting` throws `CancellationError` and leaves nothing
    /// behind; `.requestCancellation` asks the task's producer to stop (a ``BFTaskCompletionSource``
    /// observes it through ``BFTaskCompletionSource/cancellationToken``) and waits for its answer.
    public func get<Thrown: Error>(
        onTaskCancellation policy: TaskCancellationPolicy<any Error, Thrown>
    ) async throws(Thrown) -> T {
        try await future.get(onTaskCancellation: policy)
    }

    // MARK: - Conversions

    /// Views `future` as a task; no copy, the task and the future are the same cell. A failure with
    /// `FuturesError.cancelled` or `CancellationError` reads as cancelled.
    public init(_ future: Future<T, any Error>) {
        self.future = future
    }

    /// Views a future with a typed error as a task. A cancellation request on the task's future reaches
    /// `future` as one of its consumers: `future` is asked once every consumer registered on it has
    /// asked (GUARANTEES.md G8), so a future shared with someone who still waits keeps running.
    public init<E: Error>(_ future: Future<T, E>) {
        let erased = Future<T, any Error>()
        erased.depend(upon: future, immediateExecutionContext) { result in erased.complete(result.mapError { $0 }) }
        self.future = erased
    }
}

extension Future where E == any Error {
    /// A future for `task`: succeeds with its result, fails with its error, and fails with
    /// `FuturesError.cancelled` if the task was cancelled.
    ///
    /// The returned future is a new face on the same result, and one consumer of the task's own cell:
    /// `Future.requestCancellation()` on it reaches the cell (so a ``BFTaskCompletionSource`` producer
    /// observes it) once every consumer of the cell has asked (GUARANTEES.md G8). Use ``BFTask/future``
    /// to get the task's cell itself.
    public convenience init(_ task: BFTask<T>) {
        self.init()
        completeWith(task.future)
    }
}

/// Any ``BFTask``, whatever its result type: lets ``BFTask/init(forCompletionOfAllTasks:file:line:)`` and
/// `BFTask.init(forCompletionOfAnyTask:)` take tasks of different result types in one array.
public protocol BFTaskProtocol: Sendable {
    /// The type of the task's result.
    associatedtype TaskResult: Sendable
    /// The task itself.
    var bfTask: BFTask<TaskResult> { get }
}

extension BFTask: BFTaskProtocol {
    /// This task.
    public var bfTask: BFTask<T> { self }
}

extension BFTask: CustomStringConvertible {
    /// The state in Bolts' style: `BFTask<Int>(completed: true, cancelled: false, faulted: false, result: 5)`.
    public var description: String {
        guard let result = future.result else {
            return "BFTask<\(T.self)>(completed: false, cancelled: false, faulted: false)"
        }
        switch result {
        case .success(let value):
            return "BFTask<\(T.self)>(completed: true, cancelled: false, faulted: false, result: \(value))"
        case .failure(let error) where isCancellationError(error):
            return "BFTask<\(T.self)>(completed: true, cancelled: true, faulted: false)"
        case .failure(let error):
            return "BFTask<\(T.self)>(completed: true, cancelled: false, faulted: true, error: \(error))"
        }
    }
}
