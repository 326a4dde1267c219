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
    ///   ``timeout(after:clock:failingWith:file:line:)``.
    ///
    /// The failure is delivered from a task sleeping on `clock` (default `ContinuousClock()`), after the
    /// request to this future: whoever reacts to the timeout runs after the work was asked to stop.
    /// `file` and `line` name this step in a ``FailureTrace``.
    /// `duration` is clamped to 0…10⁹ s (about 31 years), so `.seconds(Int64.max)` means "no
    /// deadline in practice" instead of overflowing the clock. When the deadline passes first, this
    /// future is asked to cancel as one of its consumers: its work stops unless someone else still waits
    /// for it (GUARANTEES.md G8). A cancellation request on the returned future is passed on the same way.
    public func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, TimeoutError<E>> {
        withDeadline(duration, clock: clock, timedOut: .timedOut, file: file, line: line) { .failure($0) }
    }

    /// A future with this future's result if it arrives within `duration` on `clock`, else failing
    /// with `error`.
    ///
    /// Behaves as ``timeout(after:clock:file:line:)->Future<T,TimeoutError<E>>``, but keeps the failure type
    /// `E`: use it when `E` has a case that means "timed out"
    /// (`future.timeout(after: .seconds(5), failingWith: .timedOut)`). When the deadline passes first,
    /// this future is asked to cancel, as one of its consumers. `duration` is clamped to 0…10⁹ s (about 31
    /// years).
    public func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        failingWith error: E,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E> {
        withDeadline(duration, clock: clock, timedOut: error, file: file, line: line) { $0 }
    }

    /// Completes a new future with this future's result (its error mapped by `transform`) or, when
    /// `clock` reaches now + `duration` first, with `timedOut`.
    ///
    /// The returned future is one consumer of this one (``depend(on:_:link:asking:_:)``). Whatever decides
    /// first wins, once (``DeadlineRace``). When the deadline wins, this future is asked to cancel
    /// **before** the returned future fails: whoever reacts to the timeout (a `recoverWith` that
    /// registers a new consumer, a limiter that starts the next item) runs after the work was asked.
    /// A request on the returned future and the deadline share one ask.
    func withDeadline<E1: Error>(
        _ duration: Duration,
        clock: some Clock<Duration>,
        timedOut: E1,
        file: StaticString,
        line: UInt,
        _ transform: @escaping @Sendable (E) -> E1
    ) -> Future<T, E1> {
        if !FailureTracing.isOn, let result = ifCompleted({ $0 }) {
            return Future<T, E1>(result: result.mapError(transform))
        }
        let limited = Future<T, E1>()
        let race = LockedBox(DeadlineRace.armed(timer: nil))
        // The timer holds this future weakly, through the ask: it only needs it to ask it to stop.
        let ask = ConsumerAsk(self)
        // Registered before the timer starts, so the ask the deadline makes is counted against this
        // consumer (an ask before the registration would count against the others).
        limited.depend(on: self, link: .step("timeout", file: file, line: line), asking: ask) { result in
            guard case .won(let timer) = race.withValue({ $0.decide() }) else { return }
            timer?.cancel()
            limited.complete(result.mapError(transform))
        }
        let timer = ClockTimer(after: duration, on: clock) {
            guard case .won = race.withValue({ $0.decide() }) else { return }
            ask.ask()
            limited.complete(.failure(timedOut))
        }
        if !race.withValue({ $0.arm(timer) }) { timer.cancel() }
        return limited
    }
}

/// Who decides a deadline's outcome: the input's result or the timer, whichever comes first, once.
enum DeadlineRace: Sendable {
    /// Undecided; the timer, once started.
    case armed(timer: ClockTimer?)
    case decided

    /// What ``decide()`` tells its caller.
    enum Decision {
        /// The caller decides the outcome; it cancels the timer, if one was started.
        case won(timer: ClockTimer?)
        case lost
    }

    /// The caller decides the outcome unless someone did before.
    mutating func decide() -> Decision {
        guard case .armed(let timer) = self else { return .lost }
        self = .decided
        return .won(timer: timer)
    }

    /// Stores the started timer; `false` if the outcome is decided already (the caller cancels it).
    mutating func arm(_ timer: ClockTimer) -> Bool {
        guard case .armed = self else { return false }
        self = .armed(timer: timer)
        return true
    }
}

extension Future where E == any Error {
    /// A future with this future's result if it arrives within `duration` on `clock`, else failing
    /// with ``FuturesError/timedOut``.
    ///
    /// The untyped form of ``Future/timeout(after:clock:file:line:)->Future<T,TimeoutError<E>>``: the failure
    /// type stays `any Error`. When the deadline passes first, this future is asked to cancel (as one of its
    /// consumers) so the work can stop; when
    /// this future completes first, the timer is stopped. The failure is delivered from a task
    /// sleeping on `clock` (default `ContinuousClock()`). `duration` is clamped to 0…10⁹ s (about 31
    /// years).
    public func timeout(
        after duration: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, any Error> {
        withDeadline(duration, clock: clock, timedOut: FuturesError.timedOut, file: file, line: line) { $0 }
    }
}
