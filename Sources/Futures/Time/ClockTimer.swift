import Dispatch

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

/// The library's one timer: it runs a body once, when a clock reaches a deadline.
///
/// Every time-based operation is built on it — `after`, `delay` (on a clock or BrightFutures' queue
/// form), `timeout`, `retry`'s back-off, a limiter item's deadline, `CancellationSource.cancel(after:)`,
/// the faces' delays — so each of them runs on whatever clock it is given: a real one, or a test clock
/// advanced by hand. The forms without a clock parameter use `ContinuousClock`.
///
/// - Where it waits: a deadline of `ContinuousClock` (the default of every operator, and the clock of
///   the Dispatch-flavoured forms) is waited for by a one-shot Dispatch timer source on a global queue
///   (``DispatchTimer``), set to fire once the time from now to the deadline has passed; the body runs
///   on that queue. No task waits, so a Swift concurrency pool whose few threads are all busy (blocking
///   work inside tasks) cannot hold the deadline back. A deadline of any other clock (a test clock,
///   `SuspendingClock`) is waited for by a Swift `Task` that sleeps on that clock, and the body runs in
///   that task.
/// - Deadline: fixed when the timer is made. On `ContinuousClock`, a deadline already reached fires at
///   once on the global queue. On another clock, if the clock has reached the deadline by the time the
///   task runs, the body runs without sleeping (a test clock advanced to exactly the deadline before the
///   task got to sleep would otherwise keep it asleep until some later advance: its `sleep(until:)` waits
///   while `deadline >= now`). A duration is clamped to 0…10⁹ s (``Swift/Duration/longestTimerWait``),
///   so the deadline stays representable.
/// - Cancellation: ``cancel()`` stops the wait; the body never runs unless it has started. The Dispatch
///   timer releases the body at once; the task releases it when it ends, which its cancelled sleep (or,
///   if the sleep had ended, its check of `Task.isCancelled`) makes it do without running the body.
package struct ClockTimer: Sendable {
    // What waits: exactly one of the two is set. Two optionals, not an enum of two cases: such an enum
    // keeps its case in the spare high bits of the class reference, and a reference with those bits set is
    // invisible to LeakSanitizer's scan of memory, which then reports a pending timer as leaked.

    /// The task that sleeps and then runs the body, when the deadline is not `ContinuousClock`'s;
    /// tests await its end (`await timer.task?.value`).
    package let task: Task<Void, Never>?

    /// The Dispatch timer that runs the body, when the deadline is `ContinuousClock`'s.
    let dispatchTimer: DispatchTimer?

    /// Starts a timer that runs `body` once `clock` reaches `deadline`: on a Dispatch timer when
    /// `deadline` is a `ContinuousClock.Instant` (its wait is measured on `ContinuousClock` itself), else
    /// in a task that sleeps on `clock`.
    @discardableResult
    package init<C: Clock>(at deadline: C.Instant, on clock: C, _ body: @escaping @Sendable () -> Void) {
        #if ServiceContext
            // The body runs with the trace context of the code that set the timer, on every clock: a
            // Dispatch timer's queue has none of its own, and a retry's next attempt, a delayed value or a
            // deadline's failure belong to the request that scheduled them.
            let body = ContextTravel.isActive ? ContextTravel.bound(body) : body
        #endif
        if let deadline = deadline as? ContinuousClock.Instant {
            let wait = ContinuousClock.now.duration(to: deadline)
            let seconds =
                wait <= .zero ? 0 : Double(wait.components.seconds) + Double(wait.components.attoseconds) * 1e-18
            dispatchTimer = DispatchTimer(after: seconds, body)
            task = nil
            return
        }
        dispatchTimer = nil
        task = Task {
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

    /// Starts a timer that runs `body` once `duration` (clamped to 0…10⁹ s) has passed on `clock`,
    /// counted from now.
    @discardableResult
    package init<C: Clock<Duration>>(after duration: Duration, on clock: C, _ body: @escaping @Sendable () -> Void) {
        self.init(at: timerDeadline(after: duration, on: clock), on: clock, body)
    }

    /// Starts a timer on `ContinuousClock` that runs `body` after `interval` (a Dispatch interval, for
    /// the BrightFutures-style queue forms); `.never` waits the longest timer wait, 10⁹ s.
    @discardableResult
    package init(after interval: DispatchTimeInterval, _ body: @escaping @Sendable () -> Void) {
        self.init(after: interval.duration, on: ContinuousClock(), body)
    }

    /// Stops the timer: the body never runs if it has not started (see *Cancellation* above).
    package func cancel() {
        task?.cancel()
        dispatchTimer?.cancel()
    }
}

/// A one-shot Dispatch timer source on a global queue: what ``ClockTimer`` waits on for `ContinuousClock`.
///
/// `@unchecked Sendable` because its one stored property is a Dispatch source, which Dispatch does not
/// mark `Sendable`: it is configured and resumed in `init`, before the object is shared, and afterwards
/// only `cancel()` is called on it, which Dispatch allows from any thread. Cancelling releases the event
/// handler (and what `body` captured) at once, not at the deadline; the handler cancels the source first,
/// which also breaks the source → handler → source reference.
final class DispatchTimer: @unchecked Sendable {
    private let source: DispatchSourceTimer

    /// Runs `body` once, `seconds` from now (`DispatchTime + Double` counts 64-bit nanoseconds on every
    /// platform).
    init(after seconds: Double, _ body: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + seconds)
        source.setEventHandler { [source] in
            source.cancel()
            body()
        }
        self.source = source
        source.resume()
    }

    /// Stops the timer: the body never runs if it has not started, and it is released.
    func cancel() {
        source.cancel()
    }
}

/// The instant `duration` (clamped to 0…10⁹ s, see ``Swift/Duration/longestTimerWait``) from now on
/// `clock`: the deadline ``ClockTimer/init(after:on:_:)`` sets.
package func timerDeadline<C: Clock<Duration>>(after duration: Duration, on clock: C) -> C.Instant {
    clock.now.advanced(by: duration.clampedForTimer)
}

extension DispatchTimeInterval {
    /// The interval as a `Duration`; `.never` as the longest timer wait.
    var duration: Duration {
        switch self {
        case .seconds(let value): .seconds(value)
        case .milliseconds(let value): .milliseconds(value)
        case .microseconds(let value): .microseconds(value)
        case .nanoseconds(let value): .nanoseconds(value)
        case .never: .longestTimerWait
        @unknown default: .longestTimerWait
        }
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
