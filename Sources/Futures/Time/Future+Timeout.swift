extension Future {
    /// A future with this future's result if it arrives within `duration` on `clock`, else a failure
    /// ``TimeoutError/timedOut``.
    ///
    /// The deadline is `duration` from now. When it passes first, the returned future fails and this
    /// future is asked to cancel as one of its consumers, so the timed-out work can stop — through any
    /// chain (`request.mapError(classify).timeout(…)` reaches the request) — unless someone else still
    /// waits for it. When this future completes first, the timer is stopped. This future's own failure arrives
    /// as ``TimeoutError/failure(_:)``.
    ///
    /// Which form you get depends on the failure type:
    /// - typed futures (this method): `Future<T, TimeoutError<E>>`, so "timed out" and every failure of
    ///   `E` stay distinguishable and exhaustive;
    /// - `Future<T, any Error>`: the `timeout(after:clock:)` of `extension Future where E == any Error`
    ///   keeps `any Error` and fails with ``FuturesError/timedOut``;
    /// - to keep a typed `E`, supply the error that means "timed out":
    ///   ``timeout(after:clock:failingWith:)``.
    ///
    /// The failure is delivered from a task sleeping on `clock` (default `ContinuousClock()`).
    /// `duration` is clamped to 0…10⁹ s (about 31 years), so `.seconds(Int64.max)` means "no
    /// deadline in practice" instead of overflowing the clock. When the deadline passes first, this
    /// future is asked to cancel as one of its consumers: its work stops unless someone else still waits
    /// for it (GUARANTEES.md G8). A cancellation request on the returned future is passed on the same way.
    public func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Future<T, TimeoutError<E>> {
        withDeadline(duration, clock: clock, timedOut: .timedOut) { .failure($0) }
    }

    /// A future with this future's result if it arrives within `duration` on `clock`, else failing
    /// with `error`.
    ///
    /// Behaves as ``timeout(after:clock:)->Future<T,TimeoutError<E>>``, but keeps the failure type
    /// `E`: use it when `E` has a case that means "timed out"
    /// (`future.timeout(after: .seconds(5), failingWith: .timedOut)`). When the deadline passes first,
    /// this future is asked to cancel, as one of its consumers. `duration` is clamped to 0…10⁹ s (about 31
    /// years).
    public func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        failingWith error: E
    ) -> Future<T, E> {
        withDeadline(duration, clock: clock, timedOut: error) { $0 }
    }

    /// Completes a new future with this future's result (its error mapped by `transform`) or, when
    /// `clock` reaches now + `duration` first, with `timedOut`, requesting cancellation of this future.
    func withDeadline<E1: Error>(
        _ duration: Duration,
        clock: some Clock<Duration>,
        timedOut: E1,
        _ transform: @escaping @Sendable (E) -> E1
    ) -> Future<T, E1> {
        if let result {
            return Future<T, E1>(result: result.mapError(transform))
        }
        let limited = Future<T, E1>()
        let deadline = timerDeadline(after: duration, on: clock)
        // The timer holds this future weakly: it only needs it to ask it to stop.
        // `limited` is one consumer of this future: the timer and a request on `limited` share one ask.
        let ask = ConsumerAsk(self)
        let timer = runAt(deadline, on: clock) {
            if limited.complete(.failure(timedOut)) {
                ask.ask()
            }
        }
        whenComplete(immediateExecutionContext) { result in
            if limited.complete(result.mapError(transform)) {
                timer.cancel()
            }
        }
        limited.onCancellationRequested { ask.ask() }
        return limited
    }
}

extension Future where E == any Error {
    /// A future with this future's result if it arrives within `duration` on `clock`, else failing
    /// with ``FuturesError/timedOut``.
    ///
    /// The untyped form of ``Future/timeout(after:clock:)->Future<T,TimeoutError<E>>``: the failure
    /// type stays `any Error`. When the deadline passes first, this future is asked to cancel (as one of its
    /// consumers) so the work can stop; when
    /// this future completes first, the timer is stopped. The failure is delivered from a task
    /// sleeping on `clock` (default `ContinuousClock()`). `duration` is clamped to 0…10⁹ s (about 31
    /// years).
    public func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Future<T, any Error> {
        withDeadline(duration, clock: clock, timedOut: FuturesError.timedOut) { $0 }
    }
}
