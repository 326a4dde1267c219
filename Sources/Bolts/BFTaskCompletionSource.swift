import Futures

/// Bolts' `BFTaskCompletionSource`: the write end of a ``BFTask``, for wrapping callback APIs.
///
/// ```swift
/// func fetchAsync(_ object: Record) -> BFTask<Record> {
///     let source = BFTaskCompletionSource<Record>()
///     object.fetchInBackground { fetched, error in
///         if let error {
///             source.set(error: error)
///         } else {
///             source.set(result: fetched!)
///         }
///     }
///     return source.task
/// }
/// ```
///
/// Built on a `Promise` of `Future<T, any Error>`, so it follows the library's misuse rules:
/// - **Setting twice** with ``set(result:file:line:)``, ``set(error:file:line:)`` or
///   ``cancel(file:line:)``: the first outcome stays; the second is ignored and reported as
///   `FuturesDiagnostic.promiseCompletedTwice(file:line:)` (Bolts raised an exception). Use the
///   `trySet` forms where racing completers are expected: they return `false`.
/// - **Dropping** the source without completing its task: reported as
///   `FuturesDiagnostic.promiseDropped(type:file:line:)` and the task faults with
///   `FuturesError.brokenPromise` (Bolts left it pending forever).
///
/// Consumers can ask the producer to stop with `Future(task).requestCancellation()` (or
/// `task.future.requestCancellation()`); the producer observes it through ``cancellationToken``.
public final class BFTaskCompletionSource<T: Sendable>: Sendable {
    @usableFromInline let promise: Promise<T, any Error>

    /// Creates a source with a pending task. `file` and `line` name it in diagnostics: failure traces and
    /// the pending-futures report name the task `BFTaskCompletionSource` there.
    @inlinable
    public init(file: StaticString = #fileID, line: UInt = #line) {
        self.promise = Promise(producer: "BFTaskCompletionSource", file: file, line: line)
    }

    /// The task this source completes.
    @inlinable
    public var task: BFTask<T> {
        BFTask(future: promise.future)
    }

    /// Completes the task successfully with `result`. Setting a completed task is ignored and reported.
    @inlinable
    public func set(result: T, file: StaticString = #fileID, line: UInt = #line) {
        promise.complete(.success(result), file: file, line: line)
    }

    /// Faults the task with `error` (a cancellation error cancels it). Setting a completed task is
    /// ignored and reported.
    @inlinable
    public func set(error: any Error, file: StaticString = #fileID, line: UInt = #line) {
        promise.complete(.failure(error), file: file, line: line)
    }

    /// Cancels the task. Cancelling a completed task is ignored and reported.
    @inlinable
    public func cancel(file: StaticString = #fileID, line: UInt = #line) {
        promise.complete(.failure(FuturesError.cancelled), file: file, line: line)
    }

    /// Completes the task with `result` unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySet(result: T) -> Bool {
        promise.trySuccess(result)
    }

    /// Faults the task with `error` unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySet(error: any Error) -> Bool {
        promise.tryFailure(error)
    }

    /// Cancels the task unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySetCancelled() -> Bool {
        promise.tryFailure(FuturesError.cancelled)
    }

    // MARK: - Observing cancellation requests (the producer side)

    /// Fires when a consumer requests cancellation of the task's future while it is pending.
    ///
    /// The task is not cancelled by the request: the producer reacts, typically by stopping its work
    /// and calling ``trySetCancelled()``.
    public var cancellationToken: CancellationToken {
        promise.cancellationToken
    }

    /// `true` once a consumer requested cancellation while the task was pending.
    public var isCancellationRequested: Bool {
        promise.isCancellationRequested
    }
}
