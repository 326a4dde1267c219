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
/// It is the write end of its task's future, with the rules of the library's `Promise`, through the same
/// core functions:
/// - **Setting twice** with ``set(result:file:line:)``, ``set(error:file:line:)`` or
///   ``cancel(file:line:)``: the first outcome stays; the second is ignored and reported as
///   `FuturesDiagnostic.promiseCompletedTwice(file:line:)` (Bolts raised an exception). Use the
///   `trySet` forms where racing completers are expected: they return `false`.
/// - **Dropping** the source without completing its task: reported as
///   `FuturesDiagnostic.promiseDropped(type:file:line:)`, naming `BFTaskCompletionSource<T>` and the line
///   that created it, and the task faults with `FuturesError.brokenPromise` (Bolts left it pending
///   forever).
///
/// Consumers can ask the producer to stop with `Future(task).requestCancellation()` (or
/// `task.future.requestCancellation()`); the producer observes it through ``cancellationToken``.
public final class BFTaskCompletionSource<T: Sendable>: Sendable {
    /// The future of ``task``.
    @usableFromInline let future: Future<T, any Error>
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt

    /// Creates a source with a pending task. `file` and `line` name it in diagnostics: failure traces and
    /// the pending-futures report name the task `BFTaskCompletionSource` there.
    @inlinable
    public init(file: StaticString = #fileID, line: UInt = #line) {
        future = Future()
        self.file = file
        self.line = line
        future.recordProduced("BFTaskCompletionSource", file: file, line: line)
    }

    deinit {
        // As the core's `Promise`: a completed task is seen with one acquiring load, without a retain of
        // `future` (this source holds it until its fields are destroyed, after this body).
        if Unmanaged.passUnretained(future)._withUnsafeGuaranteedRef({ $0.isKnownCompleted }) { return }
        future.writeEndDropped(type: "\(BFTaskCompletionSource.self)", file: file, line: line)
    }

    /// Completes the task with `result`, reporting a second completion made at `file`:`line`.
    @inlinable
    func complete(_ result: Result<T, any Error>, file: StaticString, line: UInt) {
        if future.completeAsWriteEnd(result, file: self.file, line: self.line) { return }
        FuturesDiagnostics.report(.promiseCompletedTwice(file: "\(file)", line: line))
    }

    /// The task this source completes.
    @inlinable
    public var task: BFTask<T> {
        BFTask(future: future)
    }

    /// Completes the task successfully with `result`. Setting a completed task is ignored and reported.
    @inlinable
    public func set(result: T, file: StaticString = #fileID, line: UInt = #line) {
        complete(.success(result), file: file, line: line)
    }

    /// Faults the task with `error` (a cancellation error cancels it). Setting a completed task is
    /// ignored and reported.
    @inlinable
    public func set(error: any Error, file: StaticString = #fileID, line: UInt = #line) {
        complete(.failure(error), file: file, line: line)
    }

    /// Cancels the task. Cancelling a completed task is ignored and reported.
    @inlinable
    public func cancel(file: StaticString = #fileID, line: UInt = #line) {
        complete(.failure(FuturesError.cancelled), file: file, line: line)
    }

    /// Completes the task with `result` unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySet(result: T) -> Bool {
        future.completeAsWriteEnd(.success(result), file: file, line: line)
    }

    /// Faults the task with `error` unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySet(error: any Error) -> Bool {
        future.completeAsWriteEnd(.failure(error), file: file, line: line)
    }

    /// Cancels the task unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySetCancelled() -> Bool {
        future.completeAsWriteEnd(.failure(FuturesError.cancelled), file: file, line: line)
    }

    // MARK: - Observing cancellation requests (the producer side)

    /// Fires when a consumer requests cancellation of the task's future while it is pending.
    ///
    /// The task is not cancelled by the request: the producer reacts, typically by stopping its work
    /// and calling ``trySetCancelled()``.
    public var cancellationToken: CancellationToken {
        future.writeEndCancellationToken
    }

    /// `true` once a consumer requested cancellation while the task was pending.
    public var isCancellationRequested: Bool {
        future.isCancellationRequested
    }
}
