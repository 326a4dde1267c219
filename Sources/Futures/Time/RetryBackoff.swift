/// How long ``Future/retry(_:backoff:clock:while:_:)`` waits before each new attempt.
///
/// ```swift
/// .constant(.seconds(1))                                   // 1 s, 1 s, 1 s, …
/// .exponential(initial: .milliseconds(100))                // 100 ms, 200 ms, 400 ms, …
/// .exponential(initial: .seconds(1), multiplier: 3, maximum: .seconds(10))  // 1 s, 3 s, 9 s, 10 s, …
/// .custom { retry in .seconds(retry * retry) }             // 1 s, 4 s, 9 s, …
/// ```
public struct RetryBackoff: Sendable {
    private let delayBeforeRetry: @Sendable (Int) -> Duration

    /// A back-off computed by `delay` from the retry's number (1 before the second attempt, 2 before
    /// the third, …). Negative results count as zero.
    public static func custom(_ delay: @escaping @Sendable (_ retry: Int) -> Duration) -> RetryBackoff {
        RetryBackoff(delayBeforeRetry: delay)
    }

    /// The same wait before every retry.
    public static func constant(_ delay: Duration) -> RetryBackoff {
        RetryBackoff(delayBeforeRetry: { _ in delay })
    }

    /// No wait: each retry starts as soon as the previous attempt failed.
    public static var immediate: RetryBackoff { .constant(.zero) }

    /// A wait that starts at `initial` and is multiplied by `multiplier` before each further retry,
    /// capped at `maximum` when given.
    public static func exponential(
        initial: Duration,
        multiplier: Double = 2,
        maximum: Duration? = nil
    ) -> RetryBackoff {
        RetryBackoff(delayBeforeRetry: { retry in
            var delay = initial
            for _ in 1..<max(retry, 1) {
                delay = delay * multiplier
                if let maximum, delay >= maximum { return maximum }
            }
            if let maximum, delay > maximum { return maximum }
            return delay
        })
    }

    /// The wait before retry number `retry` (1 before the second attempt); never negative.
    public func delay(beforeRetry retry: Int) -> Duration {
        max(delayBeforeRetry(retry), .zero)
    }
}
