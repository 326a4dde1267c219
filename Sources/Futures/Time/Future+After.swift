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
    /// - Duration: clamped to 0…10⁹ s (about 31 years), so a huge duration such as
    ///   `.seconds(Int64.max)` waits "for ever" instead of overflowing the clock; a negative one
    ///   completes at once (still from the timer's task).
    /// - Cancellation: a request stops the timer (its sleeping task is cancelled). This future cannot
    ///   fail, so it cannot report the cancellation: it then **never completes**; its callbacks never
    ///   run and are released with it. To hear about the cancellation, use
    ///   ``Future/after(_:clock:failingWith:file:line:)`` with a failure type of your choice.
    public static func after(
        _ duration: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Void, Never> {
        startTimer(duration, clock: clock, cancellationError: nil, file: file, line: line).future
    }
}

extension Future where T == Void {
    /// A future that succeeds after `duration` has passed on `clock`, and fails with
    /// `cancellationError` if cancellation is requested first.
    ///
    /// ```swift
    /// let tick = Future<Void, any Error>.after(
    ///     .seconds(2), failingWith: FuturesError.cancelled)
    /// // the timer stops; tick fails with FuturesError.cancelled
    /// tick.requestCancellation()
    /// ```
    ///
    /// As ``Future/after(_:clock:file:line:)`` (the wait starts now, on `clock`, clamped to 0…10⁹ s), except that
    /// a cancellation request stops the timer and fails the future at once, on the requesting thread,
    /// with `cancellationError`.
    public static func after(
        _ duration: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        failingWith cancellationError: E,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Void, E> {
        startTimer(duration, clock: clock, cancellationError: cancellationError, file: file, line: line).future
    }

    /// A future that succeeds once `clock` has waited `duration`, and the task that waits; a
    /// cancellation request stops the task and fails the future with `cancellationError` when there is
    /// one (else it stays pending). Tests await the task to see it end.
    static func startTimer<C: Clock<Duration>>(
        _ duration: Duration,
        clock: C,
        cancellationError: E?,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (future: Future<Void, E>, timer: ClockTimer) {
        let future = Future<Void, E>.produced("after", file: file, line: line)
        let timer = ClockTimer(after: duration, on: clock) {
            future.complete(.success(()))
        }
        // Weak: the handler is stored in the future itself.
        future.onCancellationRequested { [weak future] in
            timer.cancel()
            if let cancellationError { future?.complete(.failure(cancellationError)) }
        }
        return (future, timer)
    }
}
