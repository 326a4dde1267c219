extension Future {
    /// Waits, without blocking a thread, for the future to complete; returns the value or throws the error.
    ///
    /// Throws exactly `E` (typed throws). For `Future<T, Never>` it does not throw: `await future.get()`.
    /// Any number of tasks may await one future at once; each is resumed as soon as the future completes,
    /// before any callback runs (a waiting task never waits for a callback on a busy queue).
    ///
    /// **Swift task cancellation:** this form ignores it and keeps waiting for the result, because a
    /// future may be shared by many consumers and `E` may have no way to say "cancelled". The waiter is
    /// released when the future completes. To stop waiting, or to pass the cancellation on to the
    /// producer, use ``get(onTaskCancellation:)``. Awaiting never blocks the main thread.
    @inlinable
    public func get() async throws(E) -> T {
        try await awaitResult().get()
    }

    /// Waits for the result like ``get()``, and reacts to cancellation of the awaiting Swift task as
    /// `policy` says.
    ///
    /// - `.keepWaiting`: as ``get()``.
    /// - `.stopWaiting`: when the task is cancelled (or already is), stop waiting and throw
    ///   `CancellationError` at once. The waiter is taken out of the future's list, so abandoned waits
    ///   leave nothing behind; the future itself is not affected. A future that is already completed
    ///   returns its result even in a cancelled task.
    /// - `.leave`: when the task is cancelled (or already is), stop waiting as `.stopWaiting` does **and**
    ///   withdraw this waiter's interest: it is taken out of the future's list and keeps counting as a
    ///   consumer that asked for cancellation, so the producer is asked once every other consumer has
    ///   asked or was taken back (GUARANTEES.md G8). Work shared with someone who still waits keeps
    ///   running. Throws as `.stopWaiting`.
    /// - `.requestCancellation`: when the task is cancelled, call ``requestCancellation()`` on the
    ///   future (reaching its producer) and keep waiting for the result the producer then delivers (for
    ///   ``init(priority:file:line:operation:)`` usually a `CancellationError`). Use it only on a future you own:
    ///   other consumers see the same result.
    ///
    /// It throws exactly what the policy lets out (typed throws; the policy chooses the type):
    ///
    /// | policy | `Future<T, Never>` | `Future<T, E>` |
    /// |---|---|---|
    /// | `.keepWaiting`, `.requestCancellation` | nothing (no `try`) | `E` |
    /// | `.stopWaiting`, `.leave` | `CancellationError` | `any Error`: an `E` or a `CancellationError` |
    ///
    /// - Throws: The future's error, or `CancellationError` when `.stopWaiting` stops waiting.
    public func get<Thrown: Error>(
        onTaskCancellation policy: TaskCancellationPolicy<E, Thrown>
    ) async throws(Thrown) -> T {
        switch await result(onTaskCancellation: policy.kind) {
        case .some(.success(let value)):
            return value
        case .some(.failure(let error)):
            throw policy.failure(error)
        case nil:
            throw policy.cancelled()
        }
    }

    /// The result, or `nil` if waiting stopped because the Swift task was cancelled (only with
    /// `.stopWaiting`).
    private func result(onTaskCancellation kind: TaskCancellationKind) async -> Result<T, E>? {
        if let result = _outcome { return result }
        switch kind {
        case .keepWaiting:
            return await awaitResult()
        case .requestCancellation:
            return await withTaskCancellationHandler {
                await awaitResult()
            } onCancel: {
                self.requestCancellation()
            }
        case .stopWaiting:
            return await awaitResultUntilTaskCancellation(leaving: false)
        case .leave:
            return await awaitResultUntilTaskCancellation(leaving: true)
        }
    }
}

/// The three reactions of ``Future/get(onTaskCancellation:)``.
enum TaskCancellationKind: Sendable {
    case keepWaiting
    case stopWaiting
    case requestCancellation
    case leave
}

/// How ``Future/get(onTaskCancellation:)`` reacts when the awaiting Swift task is cancelled, and so what
/// it can throw: `Failure` is the future's error type, `Thrown` what comes out.
///
/// Written with a leading dot — `.keepWaiting`, `.stopWaiting`, `.requestCancellation` — the compiler
/// picks the member that fits the future, and with it the thrown type (see
/// ``Future/get(onTaskCancellation:)``).
public struct TaskCancellationPolicy<Failure: Error, Thrown: Error>: Sendable {
    let kind: TaskCancellationKind
    /// Turns the future's error into the thrown error.
    let failure: @Sendable (Failure) -> Thrown
    /// The error thrown when waiting stops (called only for `.stopWaiting`).
    let cancelled: @Sendable () -> Thrown
}

extension TaskCancellationPolicy where Thrown == Failure {
    /// Ignore it; wait for the future's result (what ``Future/get()`` does). Throws the future's error.
    public static var keepWaiting: Self {
        Self(kind: .keepWaiting, failure: { $0 }, cancelled: { preconditionFailure("keepWaiting never stops") })
    }

    /// Request cancellation of the future and wait for the result its producer delivers. Throws the
    /// future's error.
    public static var requestCancellation: Self {
        Self(kind: .requestCancellation, failure: { $0 }, cancelled: { preconditionFailure("never stops") })
    }
}

extension TaskCancellationPolicy where Failure == Never, Thrown == CancellationError {
    /// Stop waiting and throw `CancellationError`; the future is not affected. On a future that cannot
    /// fail, that is all it can throw.
    public static var stopWaiting: Self {
        Self(kind: .stopWaiting, failure: unreachableFailure, cancelled: { CancellationError() })
    }

    /// Stop waiting, throw `CancellationError`, and withdraw this waiter's interest in the future: it
    /// counts as a consumer that asked, so its producer is asked to cancel once no other consumer still
    /// waits (see
    /// ``Future/get(onTaskCancellation:)``).
    public static var leave: Self {
        Self(kind: .leave, failure: unreachableFailure, cancelled: { CancellationError() })
    }
}

/// The failure conversion of a policy on a future that cannot fail: never called.
private func unreachableFailure<F: Error>(_ error: F) -> CancellationError {
    preconditionFailure("a future that cannot fail failed with \(error)")
}

extension TaskCancellationPolicy where Thrown == any Error {
    /// Stop waiting and throw `CancellationError`; the future is not affected. Throws `any Error`: the
    /// future's error or a `CancellationError` (Swift has no type for "either"; `any Error` keeps
    /// `catch is CancellationError` and `catch let error as E` working).
    @_disfavoredOverload
    public static var stopWaiting: Self {
        Self(kind: .stopWaiting, failure: { $0 }, cancelled: { CancellationError() })
    }

    /// Stop waiting, throw `CancellationError`, and withdraw this waiter's interest in the future: it
    /// counts as a consumer that asked, so its producer is asked to cancel once no other consumer still
    /// waits (see
    /// ``Future/get(onTaskCancellation:)``). Throws `any Error`, as `.stopWaiting` does.
    @_disfavoredOverload
    public static var leave: Self {
        Self(kind: .leave, failure: { $0 }, cancelled: { CancellationError() })
    }
}

/// One waiter of ``Future/get(onTaskCancellation:)`` with ``TaskCancellationPolicy/stopWaiting``: the
/// future's completion and the task's cancellation race to resume it; the first wins.
final class CancellableWaiter<T: Sendable, E: Error>: Sendable {
    enum State {
        case idle
        case waiting(UnsafeContinuation<Result<T, E>?, Never>)
        case finished
        case cancelled
    }

    private let state = LockedBox<State>(.idle)

    /// Stores the continuation; if the task was cancelled already, resumes it with `nil` and returns `false`.
    func start(_ continuation: UnsafeContinuation<Result<T, E>?, Never>) -> Bool {
        let cancelled = state.withValue { state -> Bool in
            if case .cancelled = state { return true }
            state = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume(returning: nil) }
        return !cancelled
    }

    /// The future completed: resumes with its result unless cancellation won.
    func finish(_ result: Result<T, E>) {
        let continuation = state.withValue { state -> UnsafeContinuation<Result<T, E>?, Never>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .finished
            return continuation
        }
        continuation?.resume(returning: result)
    }

    /// The task was cancelled: resumes with `nil` unless the result won; returns whether the waiter
    /// was registered and must be taken out of the future's list.
    func cancel() -> Bool {
        let continuation = state.withValue { state -> UnsafeContinuation<Result<T, E>?, Never>?? in
            switch state {
            case .idle:
                state = .cancelled
                return .some(nil)
            case .waiting(let continuation):
                state = .cancelled
                return .some(continuation)
            case .finished, .cancelled:
                return nil
            }
        }
        guard let continuation else { return false }
        continuation?.resume(returning: nil)
        return continuation != nil
    }

    var isCancelled: Bool {
        state.withValue { state in
            if case .cancelled = state { return true }
            return false
        }
    }
}
