extension Future where T == Void, E == Never {
    /// A future that succeeds after `duration` has passed on `clock`.
    ///
    /// ```swift
    /// Future.after(.seconds(2)).onSuccess { print("two seconds later") }
    /// ```
    ///
    /// The wait starts now. The future completes from a task sleeping on `clock` (callbacks then run on
    /// their own contexts). Pass your own clock (any `Clock` whose duration is `Duration`, for example a
    /// test clock that you advance by hand) to control time; the default is `ContinuousClock()`.
    ///
    /// This future cannot fail, so it cannot report a cancellation: a cancellation request is ignored
    /// and the future still completes at the deadline (like PromiseKit's `after`). For a cancellable
    /// wait, use ``Future/delay(for:clock:)`` on a future whose failure type can hold
    /// ``FuturesError/cancelled``.
    public static func after(
        _ duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Future<Void, Never> {
        let future = Future<Void, Never>()
        let deadline = clock.now.advanced(by: duration)
        runAt(deadline, on: clock) { future.complete(.success(())) }
        return future
    }
}
