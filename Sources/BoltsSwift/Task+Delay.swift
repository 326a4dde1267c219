import Foundation
import Futures

extension Task {
    /// A task that succeeds after `delay` seconds on `clock` (Bolts-Swift's `withDelay`).
    ///
    /// The delay runs on the library's timer (the one every time-based operator uses): the task completes
    /// from a Swift concurrency task once `clock` has reached the deadline, so continuations on
    /// ``Executor/default`` start there. Pass a test clock to drive it by hand. A negative delay is zero;
    /// one longer than 10⁹ seconds, or not finite (`.infinity`, `.nan`), waits 10⁹ seconds (for ever, in
    /// practice). A cancellation request on the task does not stop the timer, as in Bolts-Swift.
    ///
    /// - Parameters:
    ///   - delay: The wait, in seconds.
    ///   - clock: The clock that measures it; `ContinuousClock()` if omitted.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public static func withDelay(
        _ delay: TimeInterval,
        clock: some Clock<Duration> = ContinuousClock(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<Void> {
        let longest = 1_000_000_000.0
        let seconds = delay.isFinite ? min(max(delay, 0), longest) : longest
        let task = Task<Void>(pending: ())
        task.recordProduced("withDelay", file: file, line: line)
        ClockTimer(after: .seconds(seconds), on: clock) {
            task.complete(.success(()))
        }
        return task
    }
}
