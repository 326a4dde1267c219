extension Future {
    /// Runs `operation` until its future succeeds, at most `attempts` times, waiting `delay` on
    /// `clock` between attempts.
    ///
    /// ```swift
    /// let page = Future.retry(3, delay: .seconds(1), while: { $0.isTransient }) {
    ///     api.fetchPage()
    /// }
    /// ```
    ///
    /// Same as ``retry(_:backoff:clock:while:_:)`` with `.constant(delay)`; see there for the details.
    public static func retry(
        _ attempts: Int,
        delay: Duration = .zero,
        clock: some Clock<Duration> = ContinuousClock(),
        while shouldRetry: @escaping @Sendable (E) -> Bool = { _ in true },
        _ operation: @escaping @Sendable () -> Future<T, E>
    ) -> Future<T, E> {
        retry(attempts, backoff: .constant(delay), clock: clock, while: shouldRetry, operation)
    }

    /// Runs `operation` until its future succeeds, at most `attempts` times, waiting between attempts
    /// as `backoff` says, on `clock`.
    ///
    /// `operation` is a factory: a future is work already running, so each attempt needs a new one.
    ///
    /// - Attempts: `attempts` counts every attempt, the first included (`retry(3)` tries up to three
    ///   times); values below 1 count as 1. The first attempt starts now, on the calling thread; later
    ///   ones from a task sleeping on `clock` (or, when the wait is zero, on the thread that delivered
    ///   the failure).
    /// - `while`: called with each failure (on the thread that delivered it); returning `false` stops
    ///   and fails with that error. By default every failure is retried.
    /// - Result: the first success; or the last failure when attempts run out or `while` says stop.
    /// - Cancellation: a request on the returned future stops retrying. It is passed on to the running
    ///   attempt, whose result (typically its cancellation error) is then the result. If it comes
    ///   during a wait, the wait is stopped and the future fails with ``FuturesError/cancelled`` when
    ///   the failure type can hold it, else with the last attempt's failure.
    /// - Time: waits are measured on `clock` (default `ContinuousClock()`); pass a test clock to run
    ///   retries on virtual time.
    public static func retry(
        _ attempts: Int,
        backoff: RetryBackoff,
        clock: some Clock<Duration> = ContinuousClock(),
        while shouldRetry: @escaping @Sendable (E) -> Bool = { _ in true },
        _ operation: @escaping @Sendable () -> Future<T, E>
    ) -> Future<T, E> {
        let retrying = RetryLoop(
            attempts: max(attempts, 1),
            backoff: backoff,
            clock: clock,
            shouldRetry: shouldRetry,
            operation: operation
        )
        retrying.start()
        return retrying.future
    }
}

/// The state of one `retry`: which attempt runs, or which wait is pending.
private final class RetryLoop<T: Sendable, E: Error, C: Clock<Duration>>: Sendable {
    enum Phase {
        case running(Future<T, E>)
        case waiting(Task<Void, Never>, lastError: E)
        case done
    }

    let future = Future<T, E>()
    private let attempts: Int
    private let backoff: RetryBackoff
    private let clock: C
    private let shouldRetry: @Sendable (E) -> Bool
    private let operation: @Sendable () -> Future<T, E>
    // `nonisolated(unsafe)`: a mutable stored property of a Sendable class; it is only read and
    // written between `lock.lock()` and `lock.unlock()`.
    private let lock = SpinLock()
    nonisolated(unsafe) private var phase: Phase = .done

    init(
        attempts: Int,
        backoff: RetryBackoff,
        clock: C,
        shouldRetry: @escaping @Sendable (E) -> Bool,
        operation: @escaping @Sendable () -> Future<T, E>
    ) {
        self.attempts = attempts
        self.backoff = backoff
        self.clock = clock
        self.shouldRetry = shouldRetry
        self.operation = operation
    }

    func start() {
        future.onCancellationRequested { [self] in cancel() }
        attempt(1)
    }

    private func attempt(_ number: Int) {
        guard !future.isCancellationRequested else { return }
        let current = operation()
        lock.lock()
        phase = .running(current)
        lock.unlock()
        if future.isCancellationRequested { current.requestCancellation() }
        current.whenComplete(immediateExecutionContext) { [self] result in
            switch result {
            case .success:
                finish(result)
            case .failure(let error):
                guard number < attempts, !future.isCancellationRequested, shouldRetry(error) else {
                    finish(result)
                    return
                }
                let wait = backoff.delay(beforeRetry: number)
                if wait == .zero {
                    attempt(number + 1)
                    return
                }
                let deadline = clock.now.advanced(by: wait)
                // The timer is created under the lock so that its attempt (which takes the lock to
                // record itself as running) cannot be overwritten by this `.waiting`.
                lock.lock()
                let timer = runAt(deadline, on: clock) { [self] in attempt(number + 1) }
                phase = .waiting(timer, lastError: error)
                lock.unlock()
            }
        }
    }

    private func finish(_ result: Result<T, E>) {
        lock.lock()
        phase = .done
        lock.unlock()
        future.complete(result)
    }

    private func cancel() {
        lock.lock()
        let current = phase
        if case .waiting = current { phase = .done }
        lock.unlock()
        switch current {
        case .running(let attempt):
            attempt.requestCancellation()
        case .waiting(let timer, let lastError):
            timer.cancel()
            future.complete(.failure(Future<T, E>.cancellationError ?? lastError))
        case .done:
            break
        }
    }
}
