extension Deferred {
    /// A deferred computation that, when executed, executes this one up to `attempts` times until it
    /// succeeds, waiting `delay` on `clock` between attempts.
    ///
    /// Same as ``retry(_:backoff:clock:while:)`` with `.constant(delay)`.
    public func retry(
        _ attempts: Int,
        delay: Duration = .zero,
        clock: some Clock<Duration> = ContinuousClock(),
        while shouldRetry: @escaping @Sendable (E) -> Bool = { _ in true }
    ) -> Deferred<T, E> {
        retry(attempts, backoff: .constant(delay), clock: clock, while: shouldRetry)
    }

    /// A deferred computation that, when executed, executes this one up to `attempts` times until it
    /// succeeds, waiting between attempts as `backoff` says, on `clock`.
    ///
    /// A `Deferred` is already the factory that ``Future/retry(_:backoff:clock:while:_:)`` needs: each
    /// attempt is a fresh execution. Nothing runs until the result is executed; attempts, `while`,
    /// waits and cancellation behave as in ``Future/retry(_:backoff:clock:while:_:)``.
    public func retry(
        _ attempts: Int,
        backoff: RetryBackoff,
        clock: some Clock<Duration> = ContinuousClock(),
        while shouldRetry: @escaping @Sendable (E) -> Bool = { _ in true }
    ) -> Deferred<T, E> {
        let once = self
        return Deferred(starting: {
            Future.retry(attempts, backoff: backoff, clock: clock, while: shouldRetry) { once.run() }
        })
    }

    /// Executes this computation once and waits for its result, without blocking a thread.
    ///
    /// Each call is a new execution. Throws exactly `E`; for `E == Never` it does not throw.
    /// Cancelling the waiting Swift task does not cancel the execution.
    public func get() async throws(E) -> T {
        try await run().get()
    }
}
