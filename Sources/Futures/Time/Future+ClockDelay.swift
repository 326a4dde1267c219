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
    /// - Duration: clamped to 0…10⁹ s (about 31 years), so a huge duration such as
    ///   `.seconds(Int64.max)` waits "for ever" instead of overflowing the clock.
    /// - Cancellation: a request on the returned future is passed on to this future while it is
    ///   pending, as one of its consumers (GUARANTEES.md G8: it is asked once every consumer has asked),
    ///   and stops the wait: a timer already running is cancelled, and none is started
    ///   later. If the failure type can hold ``FuturesError/cancelled`` (`any Error`,
    ///   `FuturesError`), the returned future fails with it at once, on the requesting thread.
    ///   Otherwise (`Never`, your own error types) it **never completes**: its callbacks never run and
    ///   are released with it. To fail with a typed error instead, use
    ///   ``delay(for:clock:failingWith:file:line:)``.
    public func delay(
        for duration: Duration, clock: some Clock<Duration> = ContinuousClock(), file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E> {
        delayed(by: duration, clock: clock, cancellationError: Self.cancellationError, file: file, line: line)
    }

    /// A future with this future's result, delivered `duration` after this future completes on
    /// `clock`, that fails with `cancellationError` when cancellation is requested before.
    ///
    /// As ``delay(for:clock:file:line:)``, for failure types that cannot hold ``FuturesError/cancelled``:
    /// a cancellation request is passed on to this future (as one of its consumers), stops the wait, and fails the returned
    /// future at once (on the requesting thread) with `cancellationError`.
    public func delay(
        for duration: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        failingWith cancellationError: E,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, E> {
        delayed(by: duration, clock: clock, cancellationError: cancellationError, file: file, line: line)
    }

    private func delayed<C: Clock<Duration>>(
        by duration: Duration,
        clock: C,
        cancellationError: E?,
        file: StaticString,
        line: UInt
    ) -> Future<T, E> {
        let delayed = Future<T, E>()
        let timer = LockedBox(DelayTimerState.idle)
        // One consumer of this future: a request on `delayed` asks it (before the handler below fails
        // `delayed`: whatever gives up on its input asks first, then completes).
        delayed.depend(on: self, link: .step("delay", file: file, line: line)) { result in
            guard !timer.value.isStopped else { return }
            let task = ClockTimer(after: duration, on: clock) { delayed.complete(result) }
            let stopped = timer.withValue { state -> Bool in
                if state.isStopped { return true }
                state = .running(task)
                return false
            }
            if stopped { task.cancel() }  // cancelled while the task was being started
        }
        // Weak: the handler is stored in `delayed` itself; it must not keep it alive.
        delayed.onCancellationRequested { [weak delayed] in
            let old = timer.withValue { state -> DelayTimerState in
                let old = state
                state = .stopped
                return old
            }
            if case .running(let task) = old { task.cancel() }
            if let cancellationError { delayed?.complete(.failure(cancellationError)) }
        }
        return delayed
    }
}

/// The timer of one `delay(for:)`: not started yet, sleeping, or stopped by a cancellation request.
private enum DelayTimerState: Sendable {
    case idle
    case running(ClockTimer)
    case stopped

    var isStopped: Bool {
        if case .stopped = self { return true }
        return false
    }
}
