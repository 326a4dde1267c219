extension Duration {
    /// The longest wait any time-based operator of the library waits for: 10⁹ seconds (about 31
    /// years). Longer durations (up to `.seconds(Int64.max)`) are clamped to it, and negative ones to
    /// zero, so that a deadline always stays representable by the clocks' sleeps (which count
    /// nanoseconds in 64 bits and trap on overflow).
    static var longestTimerWait: Duration { .seconds(1_000_000_000) }

    /// This duration clamped to `0...longestTimerWait`.
    var clampedForTimer: Duration {
        Swift.min(Swift.max(self, .zero), .longestTimerWait)
    }
}

/// The instant `duration` (clamped to 0…10⁹ s, see ``Swift/Duration/longestTimerWait``) from now on
/// `clock`.
package func timerDeadline<C: Clock<Duration>>(after duration: Duration, on clock: C) -> C.Instant {
    clock.now.advanced(by: duration.clampedForTimer)
}

/// Runs `body` once `clock` reaches `deadline`, from a Swift `Task` sleeping on that clock.
///
/// The deadline is fixed by the caller, before the task starts; if the clock has reached it by the time the
/// task runs, `body` runs without sleeping. (A test clock advanced to exactly the deadline before the task
/// got to sleep would otherwise keep it asleep until some later advance: its `sleep(until:)` waits while
/// `deadline >= now`.)
///
/// Cancelling the returned task stops the sleep and `body` never runs (it is released with the task).
/// Every time-based operator of the library is built on this, so each of them runs on whatever clock
/// it is given: a real one, or a test clock advanced by hand. Compute `deadline` with
/// ``timerDeadline(after:on:)`` so that it stays representable.
@discardableResult
package func runAt<C: Clock>(
    _ deadline: C.Instant,
    on clock: C,
    _ body: @escaping @Sendable () -> Void
) -> Task<Void, Never> {
    Task {
        if clock.now < deadline {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
        }
        // A cancellation that arrives once the sleep has ended still stops the timer.
        guard !Task.isCancelled else { return }
        body()
    }
}

extension Future {
    /// The cancellation error the library uses for a future of this failure type, if it can hold one.
    ///
    /// `FuturesError.cancelled` for `any Error` and `FuturesError` futures; `nil` for failure types that
    /// cannot express it (such as `Never`).
    static var cancellationError: E? {
        FuturesError.cancelled as? E
    }
}
