extension Future {
    /// Waits, without blocking a thread, for the future to complete; returns the value or throws the error.
    ///
    /// Throws exactly `E` (typed throws). For `Future<T, Never>` it does not throw: `await future.get()`.
    /// Any number of tasks may await one future at once; each is resumed as soon as the future completes,
    /// ahead of the callbacks' turns (a waiting task never waits for a callback on a busy queue).
    ///
    /// **Swift task cancellation:** this form ignores it and keeps waiting for the result, because a
    /// future may be shared by many consumers and `E` may have no way to say "cancelled". The waiter is
    /// released when the future completes. To stop waiting, or to pass the cancellation on to the
    /// producer, use ``get(onTaskCancellation:)``. Awaiting never blocks the main thread.
    public func get() async throws(E) -> T {
        if let result { return try result.get() }
        let result = await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, E>, Never>) in
            onCompletionWakeUp { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Waits for the result like ``get()``, and reacts to cancellation of the awaiting Swift task as
    /// `policy` says.
    ///
    /// - ``TaskCancellationPolicy/keepWaiting``: as ``get()``.
    /// - ``TaskCancellationPolicy/stopWaiting``: when the task is cancelled (or already is), stop waiting
    ///   and throw `CancellationError` at once. The waiter is taken out of the future's list, so
    ///   abandoned waits leave nothing behind; the future itself is not affected. A future that is
    ///   already completed returns its result even in a cancelled task.
    /// - ``TaskCancellationPolicy/requestCancellation``: when the task is cancelled, call
    ///   ``requestCancellation()`` on the future (reaching its producer) and keep waiting for the
    ///   result the producer then delivers (for ``init(priority:operation:)`` usually a
    ///   `CancellationError`). Use it only on a future you own: other consumers see the same result.
    ///
    /// - Throws: The future's error, or `CancellationError` (``TaskCancellationPolicy/stopWaiting``).
    public func get(onTaskCancellation policy: TaskCancellationPolicy) async throws -> T {
        if let result { return try result.get() }
        switch policy {
        case .keepWaiting:
            return try await get()
        case .requestCancellation:
            return try await withTaskCancellationHandler {
                try await get()
            } onCancel: {
                self.requestCancellation()
            }
        case .stopWaiting:
            try Task.checkCancellation()
            let waiter = CancellableWaiter<T, E>()
            let entry = RemovableEntry<T, E>(.wakeUp { result in waiter.finish(result) })
            let outcome = await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, E>?, Never>) in
                    guard waiter.start(continuation) else { return }
                    // If the task was cancelled between `start` and here, its handler could not find the
                    // entry yet: take it back now so nothing is left behind.
                    if addRemovable(entry), waiter.isCancelled {
                        removeEntry(entry)
                    }
                }
            } onCancel: {
                if waiter.cancel() {
                    self.removeEntry(entry)
                }
            }
            guard let outcome else { throw CancellationError() }
            return try outcome.get()
        }
    }
}

/// How ``Future/get(onTaskCancellation:)`` reacts when the awaiting Swift task is cancelled.
public enum TaskCancellationPolicy: Sendable {
    /// Ignore it; wait for the future's result (what ``Future/get()`` does).
    case keepWaiting
    /// Stop waiting and throw `CancellationError`; the future is not affected.
    case stopWaiting
    /// Request cancellation of the future and wait for the result its producer delivers.
    case requestCancellation
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
