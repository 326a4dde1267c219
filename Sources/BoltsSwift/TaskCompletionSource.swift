import Futures

/// The producer side of a ``Task`` (Bolts-Swift's `TaskCompletionSource`): completes ``task`` with a
/// result, an error, or cancellation.
///
/// ```swift
/// func fetch(object: PFObject) -> Task<PFObject> {
///     let taskCompletionSource = TaskCompletionSource<PFObject>()
///     object.fetchInBackgroundWithBlock { object, error in
///         if let error {
///             taskCompletionSource.set(error: error)
///         } else if let object {
///             taskCompletionSource.set(result: object)
///         } else {
///             taskCompletionSource.cancel()
///         }
///     }
///     return taskCompletionSource.task
/// }
/// ```
///
/// It is the write end of its task's cell, with the rules of the library's `Promise` (GUARANTEES.md G10),
/// through the same core functions:
/// - **Completing twice** with ``set(result:file:line:)``, ``set(error:file:line:)`` or
///   ``cancel(file:line:)``: the first outcome stays; the call is ignored and reported as
///   `FuturesDiagnostic.promiseCompletedTwice` (Bolts-Swift stopped the process with a precondition
///   failure). The `try…` forms return `false` and report nothing, as in Bolts-Swift.
/// - **Dropping** the source without completing its task: reported as `FuturesDiagnostic.promiseDropped`,
///   and the task faults with `FuturesError.brokenPromise` (Bolts-Swift left it pending for ever).
public final class TaskCompletionSource<TResult: Sendable>: Sendable {
    /// The task this source completes.
    public let task: Task<TResult>
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt

    /// Creates a source with a pending task. `file` and `line` name it in diagnostics.
    @inlinable
    public init(file: StaticString = #fileID, line: UInt = #line) {
        task = Task(pending: ())
        self.file = file
        self.line = line
        task.recordProduced("TaskCompletionSource", file: file, line: line)
    }

    deinit {
        // The common case first, as the core's `Promise` does: a completed task is seen with one acquiring
        // load, without a retain of `task` (this source holds it until its fields are destroyed, after
        // this body), and nothing is left to do.
        if Unmanaged.passUnretained(task)._withUnsafeGuaranteedRef({ $0.isKnownCompleted }) { return }
        task.writeEndDropped(type: "\(TaskCompletionSource.self)", file: file, line: line)
    }

    /// Completes the task with `result`, reporting a second completion made at `file`:`line`.
    @inlinable
    func complete(_ result: Result<TResult, any Error>, file: StaticString, line: UInt) {
        if task.completeAsWriteEnd(result, file: self.file, line: self.line) { return }
        FuturesDiagnostics.report(.promiseCompletedTwice(file: "\(file)", line: line))
    }

    /// Completes the task with `result`. A completed task stays as it is; the call is reported.
    @inlinable
    public func set(result: TResult, file: StaticString = #fileID, line: UInt = #line) {
        complete(.success(result), file: file, line: line)
    }

    /// Faults the task with `error`. A completed task stays as it is; the call is reported.
    @inlinable
    public func set(error: any Error, file: StaticString = #fileID, line: UInt = #line) {
        complete(.failure(error), file: file, line: line)
    }

    /// Cancels the task. A completed task stays as it is; the call is reported.
    @inlinable
    public func cancel(file: StaticString = #fileID, line: UInt = #line) {
        complete(.failure(FuturesError.cancelled), file: file, line: line)
    }

    /// Completes the task with `result` unless it has completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySet(result: TResult) -> Bool {
        task.completeAsWriteEnd(.success(result), file: file, line: line)
    }

    /// Faults the task with `error` unless it has completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySet(error: any Error) -> Bool {
        task.completeAsWriteEnd(.failure(error), file: file, line: line)
    }

    /// Cancels the task unless it has completed; returns whether this call cancelled it.
    @inlinable
    @discardableResult
    public func tryCancel() -> Bool {
        task.completeAsWriteEnd(.failure(FuturesError.cancelled), file: file, line: line)
    }
}
