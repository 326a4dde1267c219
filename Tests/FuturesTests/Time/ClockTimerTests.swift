import Dispatch
import Foundation
import Testing

@testable import Futures

@Suite("The one timer", .hangGuard())
struct ClockTimerTests {
    /// On `ContinuousClock` the timer waits on Dispatch, not in the Swift concurrency pool: a deadline
    /// passes even while every thread of the pool is blocked (work that blocks inside tasks).
    @Test func aContinuousClockDeadlinePassesWhileTheConcurrencyPoolIsBlocked() async {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let release = DispatchSemaphore(value: 0)
        // Blocks the pool's other threads (this test's own thread blocks below).
        for _ in 0..<width {
            Task.detached { release.wait() }
        }
        let fired = DispatchSemaphore(value: 0)
        Future.after(.milliseconds(1)).onComplete(immediateExecutionContext) { _ in fired.signal() }
        // A bound on the wait so that a timer held back by the pool fails instead of hanging.
        let outcome = fired.wait(timeout: .now() + 30)
        for _ in 0..<width { release.signal() }
        #expect(outcome == .success)
    }

    /// Cancelling a timer on `ContinuousClock` releases what its body captured at once, not at the
    /// deadline.
    @Test func cancellingAContinuousClockTimerReleasesItsBodyAtOnce() {
        let gone = DispatchSemaphore(value: 0)
        let timer = ClockTimer(after: .seconds(3_600), on: ContinuousClock()) { [captured = Captured(gone)] in
            _ = captured
        }
        #expect(gone.wait(timeout: .now()) == .timedOut)  // held by the pending timer
        timer.cancel()
        // Dispatch releases a cancelled source's handler on its queue, right after the cancel; the bound
        // only turns a body kept until the deadline into a failure instead of a hang.
        #expect(gone.wait(timeout: .now() + 30) == .success)
    }
}

/// Signals when it is released.
private final class Captured: Sendable {
    let gone: DispatchSemaphore

    init(_ gone: DispatchSemaphore) {
        self.gone = gone
    }

    deinit {
        gone.signal()
    }
}
