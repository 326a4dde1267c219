extension Future {
    /// A future with this future's result, delivered `duration` after this future completes, as
    /// measured by `clock`.
    ///
    /// Always asynchronous, even for a zero duration: the result is delivered from a task sleeping on
    /// `clock`, never on the thread that completed this future. The default clock is
    /// `ContinuousClock()`; pass a test clock to control time. (BrightFutures' `delay(_:)` taking a
    /// `DispatchTimeInterval` is a separate method; this one is labelled `for:`.)
    ///
    /// - Failure: a failure is delayed the same way.
    /// - Cancellation: a request on the returned future is passed on to this future while it is pending.
    ///   If the failure type can hold ``FuturesError/cancelled`` (`any Error`, `FuturesError`), the
    ///   returned future also fails with it at once and the pending wait is stopped; otherwise the
    ///   result is still delivered at its time.
    public func delay(for duration: Duration, clock: some Clock<Duration> = ContinuousClock()) -> Future<T, E> {
        let delayed = Future<T, E>()
        let timer = LockedBox<Task<Void, Never>?>(nil)
        whenComplete(immediateExecutionContext) { result in
            guard !delayed.isCompleted else { return }  // cancelled meanwhile
            let deadline = clock.now.advanced(by: duration)
            let task = runAt(deadline, on: clock) { delayed.complete(result) }
            timer.value = task
        }
        delayed.onCancellationRequested { [weak self] in
            self?.requestCancellation()
            if let error = Self.cancellationError, delayed.complete(.failure(error)) {
                timer.value?.cancel()
            }
        }
        return delayed
    }
}
