/// How long ``Future/retry(_:backoff:clock:while:file:line:_:)`` waits before each new attempt.
///
/// ```swift
/// // 1 s, 1 s, 1 s, …
/// .constant(.seconds(1))
/// // 100 ms, 200 ms, 400 ms, …
/// .exponential(initial: .milliseconds(100))
/// // 1 s, 3 s, 9 s, 10 s, …
/// .exponential(initial: .seconds(1), multiplier: 3, maximum: .seconds(10))
/// // 1 s, 4 s, 9 s, …
/// .custom { retry in .seconds(retry * retry) }
/// ```
public struct RetryBackoff: Sendable {
    private let delayBeforeRetry: @Sendable (Int) -> Duration

    /// A back-off computed by `delay` from the retry's number (1 before the second attempt, 2 before
    /// the third, …). Negative results count as zero; results above 10⁹ s (about 31 years) count as
    /// 10⁹ s.
    public static func custom(_ delay: @escaping @Sendable (_ retry: Int) -> Duration) -> RetryBackoff {
        RetryBackoff(delayBeforeRetry: delay)
    }

    /// The same wait before every retry (clamped to 0…10⁹ s, about 31 years).
    public static func constant(_ delay: Duration) -> RetryBackoff {
        RetryBackoff(delayBeforeRetry: { _ in delay })
    }

    /// No wait: each retry starts as soon as the previous attempt failed.
    public static var immediate: RetryBackoff { .constant(.zero) }

    /// A wait that starts at `initial` and is multiplied by `multiplier` before each further retry,
    /// capped at `maximum` when given (and, to stay representable, at about 31 years in any case).
    /// A `multiplier` that is negative counts as 0; one that is not finite counts as 1.
    public static func exponential(
        initial: Duration,
        multiplier: Double = 2,
        maximum: Duration? = nil
    ) -> RetryBackoff {
        RetryBackoff(delayBeforeRetry: { retry in
            let ceiling = Swift.min(maximum ?? .longestTimerWait, .longestTimerWait)
            let factor = multiplier.isFinite ? Swift.max(multiplier, 0) : 1
            var delay = Swift.min(initial, ceiling)
            for _ in 1..<Swift.max(retry, 1) {
                if factor > 1 && delay >= ceiling / factor { return ceiling }
                delay = delay * factor
            }
            return Swift.min(delay, ceiling)
        })
    }

    /// The wait before retry number `retry` (1 before the second attempt).
    ///
    /// Never negative and never above 10⁹ s (about 31 years): every back-off is clamped to that range,
    /// as every timer of the library is, so that a huge duration (`.seconds(Int64.max)`) waits "for
    /// ever" instead of overflowing the clock's sleep.
    public func delay(beforeRetry retry: Int) -> Duration {
        delayBeforeRetry(retry).clampedForTimer
    }
}
