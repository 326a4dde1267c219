extension Deferred {
    /// A deferred computation that, when executed, executes this one up to `attempts` times until it
    /// succeeds, waiting between attempts as `backoff` says, on `clock`.
    ///
    /// A `Deferred` is already the factory that ``Future/retry(_:backoff:clock:while:file:line:_:)`` needs: each
    /// attempt is a fresh execution. Nothing runs until the result is executed; attempts, `while` (by
    /// default ``FuturesError/isTransient(_:)``: every failure but a cancellation or a closed limiter's
    /// refusal), waits (clamped to 0…10⁹ s) and cancellation behave as in
    /// ``Future/retry(_:backoff:clock:while:file:line:_:)``: a request on the execution's future reaches the
    /// attempt in flight (the step of this chain that is running), or, during a wait, stops the timer
    /// and fails with ``FuturesError/cancelled`` when `E` can hold it, else with the last failure.
    /// `file` and `line` (leave the defaults) name each execution's `retry` at the caller's line.
    public func retry(
        _ attempts: Int,
        backoff: RetryBackoff = .immediate,
        clock: some Clock<Duration> = ContinuousClock(),
        while shouldRetry: @escaping @Sendable (E) -> Bool = FuturesError.isTransient,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Deferred<T, E> {
        let once = self
        return Deferred(starting: {
            Future.retry(attempts, backoff: backoff, clock: clock, while: shouldRetry, file: file, line: line) {
                once.run()
            }
        })
    }

    /// ``retry(_:backoff:clock:while:file:line:)`` that fails with `cancellationError` when cancellation is
    /// requested during a wait between attempts (for failure types that cannot hold
    /// ``FuturesError/cancelled``); see ``Future/retry(_:backoff:clock:while:failingWith:file:line:_:)``.
    public func retry(
        _ attempts: Int,
        backoff: RetryBackoff = .immediate,
        clock: some Clock<Duration> = ContinuousClock(),
        while shouldRetry: @escaping @Sendable (E) -> Bool = FuturesError.isTransient,
        failingWith cancellationError: E,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Deferred<T, E> {
        let once = self
        return Deferred(starting: {
            Future.retry(
                attempts, backoff: backoff, clock: clock, while: shouldRetry, failingWith: cancellationError,
                file: file, line: line
            ) { once.run() }
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
