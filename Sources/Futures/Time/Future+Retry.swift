extension Future {
    /// Runs `operation` until its future succeeds, at most `attempts` times, waiting between attempts
    /// as `backoff` says, on `clock`.
    ///
    /// `operation` is a factory: a future is work already running, so each attempt needs a new one.
    ///
    /// ```swift
    /// let page = Future.retry(3, backoff: .constant(.seconds(1))) {
    ///     api.fetchPage()
    /// }
    /// ```
    ///
    /// - Attempts: `attempts` counts every attempt, the first included (`retry(3)` tries up to three
    ///   times); values below 1 count as 1. The first attempt starts now, on the calling thread; later
    ///   ones from a task sleeping on `clock` (or, when the wait is zero, on the thread that delivered
    ///   the failure).
    /// - `while`: called with each failure (on the thread that delivered it) while attempts remain;
    ///   returning `false` stops and fails with that error. The default,
    ///   ``FuturesError/isTransient(_:)``, retries every failure but a cancellation or a refusal, which
    ///   another attempt cannot change: ``FuturesError/cancelled`` (the work was cancelled, or a closed
    ///   ``ConcurrencyLimiter`` refused or dropped it), Swift's `CancellationError`, an invalidated token,
    ///   and these wrapped in ``TimeoutError`` or ``CombinatorError``; a retry over a limiter therefore
    ///   ends with the first refusal once the limiter closes. Pass `while: { _ in true }` to retry every
    ///   failure, or your own condition (`{ FuturesError.isTransient($0) && !($0 is AuthError) }`).
    /// - Result: the first success; or the last failure when attempts run out or `while` says stop.
    /// - Cancellation: a request on the returned future stops retrying, whatever `while` says: no further
    ///   attempt starts.
    ///   - During an attempt, the request is passed on to the attempt in flight (the future
    ///     `operation` returned, whatever it is: a promise's future, a transformed future, a started
    ///     `Deferred`), and that attempt's result (typically its cancellation error) is the result.
    ///   - During a wait, the wait's timer is stopped at once and the future fails with
    ///     ``FuturesError/cancelled`` when the failure type can hold it (`any Error`,
    ///     `FuturesError`); otherwise with the last attempt's failure. To fail with an error of your
    ///     own typed `E`, use ``retry(_:backoff:clock:while:failingWith:file:line:_:)``.
    /// - Time: waits are measured on `clock` (default `ContinuousClock()`); pass a test clock to run
    ///   retries on virtual time. Each wait is clamped to 0…10⁹ s (about 31 years), see
    ///   ``RetryBackoff/delay(beforeRetry:)``.
    /// - Memory: the retry holds its attempt in flight weakly; it is kept alive by that attempt (and
    ///   by its timer during a wait). If the attempt's producer abandons it (the attempt can never
    ///   complete), the whole retry is released; the returned future then stays pending.
    /// - Failure trace: while failure tracing is on, the returned future's ``Future/failureTrace`` ends
    ///   with `retry at file:line` (where you called it), after the trace of the attempt whose failure it
    ///   passes on (`… →` when that attempt was untraced); a `failingWith:` error starts at `retry`.
    public static func retry(
        _ attempts: Int,
        backoff: RetryBackoff = .immediate,
        clock: some Clock<Duration> = ContinuousClock(),
        while shouldRetry: @escaping @Sendable (E) -> Bool = FuturesError.isTransient,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ operation: @escaping @Sendable () -> Future<T, E>
    ) -> Future<T, E> {
        startRetrying(
            attempts, backoff, clock, shouldRetry, Self.cancellationError, CallSite(file: file, line: line), operation)
    }

    /// ``retry(_:backoff:clock:while:file:line:_:)`` that fails with `cancellationError` when cancellation is
    /// requested during a wait between attempts.
    ///
    /// For typed failures that cannot hold ``FuturesError/cancelled``: supply the `E` that means
    /// "cancelled" (`Future.retry(3, backoff: .constant(.seconds(1)), failingWith: .cancelled) { … }`).
    /// Everything else (attempts, `while`, requests passed on to the attempt in flight, clamped waits)
    /// is as in ``retry(_:backoff:clock:while:file:line:_:)``.
    public static func retry(
        _ attempts: Int,
        backoff: RetryBackoff = .immediate,
        clock: some Clock<Duration> = ContinuousClock(),
        while shouldRetry: @escaping @Sendable (E) -> Bool = FuturesError.isTransient,
        failingWith cancellationError: E,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ operation: @escaping @Sendable () -> Future<T, E>
    ) -> Future<T, E> {
        startRetrying(
            attempts, backoff, clock, shouldRetry, cancellationError, CallSite(file: file, line: line), operation)
    }

    private static func startRetrying<C: Clock<Duration>>(
        _ attempts: Int,
        _ backoff: RetryBackoff,
        _ clock: C,
        _ shouldRetry: @escaping @Sendable (E) -> Bool,
        _ cancellationError: E?,
        _ site: CallSite,
        _ operation: @escaping @Sendable () -> Future<T, E>
    ) -> Future<T, E> {
        let retrying = RetryLoop(
            attempts: max(attempts, 1),
            backoff: backoff,
            clock: clock,
            shouldRetry: shouldRetry,
            cancellationError: cancellationError,
            operation: operation
        )
        if FailureTracing.isOn { FailureTracing.produced(retrying.future, name: "retry", site: site) }
        retrying.start()
        return retrying.future
    }
}

/// The state of one `retry`: which attempt runs, or which wait is pending.
///
/// Ownership (no cycles): the attempt in flight holds the loop through its callback; a pending timer
/// holds it through its task; the loop holds the returned future. The loop holds the attempt only
/// weakly and the returned future's cancellation handler holds the loop only weakly, so an attempt
/// that its producer abandons releases everything.
private final class RetryLoop<T: Sendable, E: Error, C: Clock<Duration>>: Sendable {
    enum Phase {
        /// `operation` is creating the next attempt.
        case starting
        /// An attempt is in flight (held weakly: its producer keeps it alive).
        case running(ConsumerAsk<T, E>)
        /// Waiting before the next attempt; `timer` is `nil` until the timer task is recorded.
        case waiting(timer: ClockTimer?, lastError: E, trace: TraceNode?)
        /// Finished, or cancelled: no further attempt starts.
        case done
    }

    let future = Future<T, E>()
    private let attempts: Int
    private let backoff: RetryBackoff
    private let clock: C
    private let shouldRetry: @Sendable (E) -> Bool
    private let cancellationError: E?
    private let operation: @Sendable () -> Future<T, E>
    // `nonisolated(unsafe)`: a mutable stored property of a Sendable class; it is only read and
    // written inside `lock.withLock`.
    private let lock = ParkingLock()
    nonisolated(unsafe) private var phase: Phase = .starting

    init(
        attempts: Int,
        backoff: RetryBackoff,
        clock: C,
        shouldRetry: @escaping @Sendable (E) -> Bool,
        cancellationError: E?,
        operation: @escaping @Sendable () -> Future<T, E>
    ) {
        self.attempts = attempts
        self.backoff = backoff
        self.clock = clock
        self.shouldRetry = shouldRetry
        self.cancellationError = cancellationError
        self.operation = operation
    }

    func start() {
        future.onCancellationRequested { [weak self] in self?.cancel() }
        attempt(1)
    }

    /// Replaces the phase under the lock when `condition` holds, and returns the old one: the caller
    /// releases it (a task handle, an error) after the lock is released.
    private func swapPhase(_ new: Phase, if condition: (Phase) -> Bool) -> (swapped: Bool, old: Phase) {
        lock.withLock {
            let old = phase
            let swapped = condition(old)
            if swapped { phase = new }
            return (swapped, old)
        }
    }

    private func attempt(_ number: Int) {
        let entering = swapPhase(.starting) { phase in
            if case .done = phase { return false }
            return true
        }
        guard entering.swapped else { return }  // cancelled meanwhile: no further attempt
        let current = operation()
        let ask = ConsumerAsk(current)
        let recorded = swapPhase(.running(ask)) { phase in
            if case .starting = phase { return true }
            return false
        }
        guard recorded.swapped else {
            // Cancelled (and failed) while `operation` ran: the attempt is not wanted. The returned future
            // becomes one consumer of it all the same and asks at once, so the request follows the rule
            // of any other (shared work that someone else waits for keeps running).
            future.depend(on: current, link: .gathered, asking: ask) { _ in }
            ask.ask()
            return
        }
        // The attempt's trace node, read now: the callback must not capture `current` (a future holding
        // a callback that holds it would never be freed when its producer abandons it).
        let attemptTrace = FailureTracing.isLive ? FailureTracing.node(of: current) : nil
        // One consumer of the attempt, linked as every dependency is: the pending-futures report shows the
        // returned future waiting for this attempt, a request reaches it through `ask` (shared with
        // `cancel()`), and its progress becomes the returned future's.
        future.depend(on: current, link: .follows, asking: ask) { [self] result in
            switch result {
            case .success:
                finish(result)
            case .failure(let error):
                guard number < attempts, !future.isCancellationRequested, shouldRetry(error) else {
                    // The failure is the attempt's: the trace continues the attempt's.
                    if FailureTracing.isLive { FailureTracing.follows(future, node: attemptTrace) }
                    finish(result)
                    return
                }
                let wait = backoff.delay(beforeRetry: number)
                if wait == .zero {
                    attempt(number + 1)
                } else {
                    waitThenAttempt(number + 1, after: wait, lastError: error, trace: attemptTrace)
                }
            }
        }
        // Registered first, so this ask counts as this consumer's (a request that came meanwhile).
        if future.isCancellationRequested { ask.ask() }
    }

    private func waitThenAttempt(_ number: Int, after wait: Duration, lastError: E, trace: TraceNode?) {
        // Record the wait first, so that a timer firing at once finds it (and replaces it with the
        // next attempt), then start the timer outside the lock and record it unless it already fired.
        let entering = swapPhase(.waiting(timer: nil, lastError: lastError, trace: trace)) { phase in
            if case .done = phase { return false }
            return true
        }
        guard entering.swapped else { return }
        let timer = ClockTimer(after: wait, on: clock) { [self] in attempt(number) }
        let cancelled = lock.withLock { () -> Bool in
            switch phase {
            case .waiting(timer: .none, let error, let trace):
                phase = .waiting(timer: timer, lastError: error, trace: trace)
                return false
            case .done:
                return true  // cancelled before the timer was recorded
            case .starting, .running, .waiting:
                return false  // the timer already fired
            }
        }
        if cancelled { timer.cancel() }
    }

    private func finish(_ result: Result<T, E>) {
        _ = swapPhase(.done) { _ in true }
        future.complete(result)
    }

    private func cancel() {
        let cancellationError = self.cancellationError
        let (stopped, old) = swapPhase(.done) { phase in
            switch phase {
            case .waiting: return true
            case .starting: return cancellationError != nil
            case .running, .done: return false
            }
        }
        switch old {
        case .running(let attempt):
            attempt.ask()
        case .waiting(let timer, let lastError, let trace):
            timer?.cancel()
            // With the last attempt's failure, the trace continues that attempt's; a cancellation error
            // starts at this step.
            if FailureTracing.isLive {
                if cancellationError == nil {
                    FailureTracing.follows(future, node: trace)
                } else {
                    FailureTracing.startsHere(future)
                }
            }
            future.complete(.failure(cancellationError ?? lastError))
        case .starting:
            // `attempt` sees `.done` and cancels the attempt being created; without an error to fail
            // with, it passes the request on to that attempt (it checks `isCancellationRequested`).
            if stopped, let cancellationError {
                if FailureTracing.isLive { FailureTracing.startsHere(future) }
                future.complete(.failure(cancellationError))
            }
        case .done:
            break
        }
    }
}

/// The attempt in flight, held weakly.
