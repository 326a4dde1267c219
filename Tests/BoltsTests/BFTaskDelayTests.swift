import Bolts
import Clocks
import Testing

@testable import Futures

/// `BFTask(delay:)` and `cancel(afterDelay:)` run on the core's timer, on the clock they are given: these
/// tests pass a `TestClock` and advance it by hand (no test waits for real time).
@Suite("BFTask: delays on a clock", .hangGuard())
struct BFTaskDelayTests {
    @Test func aDelaySucceedsWhenItsClockReachesTheDeadline() async throws {
        let clock = TestClock()
        let delayed = BFTask(delay: 100, clock: clock)
        await clock.advance(by: .milliseconds(99))
        #expect(!delayed.isCompleted, "the deadline has not been reached")
        await clock.advance(by: .milliseconds(1))
        try await delayed.get()
        #expect(delayed.isCompleted && !delayed.isCancelled && !delayed.isFaulted)
    }

    @Test func continuationsOfADelayRunOnceItFires() async throws {
        let clock = TestClock()
        let ran = Counter()
        let next = BFTask(delay: 50, clock: clock).continueWith { _ in ran.increment() }
        #expect(ran.value == 0)
        await clock.advance(by: .milliseconds(50))
        #expect(try await next.get() == 1)
    }

    @Test func aZeroOrNegativeDelayCompletesWithoutTheClockMoving() async throws {
        for milliseconds in [0, -5] {
            try await BFTask(delay: milliseconds, clock: TestClock()).get()
        }
    }

    @Test func aTokenCancelsADelayAtOnceAndUnregistersWhenItFires() async throws {
        let clock = TestClock()
        let source = BFCancellationTokenSource()
        let delayed = BFTask(delay: 3_600_000, cancellationToken: source.token, clock: clock)
        #expect(storedEntryCount(source.cell) == 1)
        source.cancel()
        #expect(delayed.isCancelled, "cancelled on the cancelling thread, without waiting for the timer")
        #expect(storedEntryCount(source.cell) == 0)
        await clock.advance(by: .seconds(3600))
        #expect(delayed.isCancelled, "the stopped timer does not complete it")
        #expect(BFTask(delay: 1, cancellationToken: source.token, clock: clock).isCancelled, "already cancelled")

        let unused = BFCancellationTokenSource()
        let fired = BFTask(delay: 10, cancellationToken: unused.token, clock: clock)
        await clock.advance(by: .milliseconds(10))
        try await fired.get()
        #expect(storedEntryCount(unused.cell) == 0, "a fired delay unregisters from its token")
    }

    @Test func cancelAfterDelayZeroCancelsAtOnce() {
        let source = BFCancellationTokenSource()
        source.cancel(afterDelay: 0, clock: TestClock())
        #expect(source.isCancellationRequested)
    }

    @Test func cancelAfterDelayCancelsWhenTheClockReachesTheDeadline() async {
        let clock = TestClock()
        let source = BFCancellationTokenSource()
        let fired = Promise<Void, Never>()
        source.token.registerCancellationObserver { fired.success(()) }
        source.cancel(afterDelay: 50, clock: clock)
        await clock.advance(by: .milliseconds(49))
        #expect(!source.isCancellationRequested, "nothing happens before the deadline")
        await clock.advance(by: .milliseconds(1))
        await fired.future.get()
        #expect(source.isCancellationRequested)
    }

    @Test func minusOneStopsAScheduledCancellationAndALaterCallReplacesAnEarlierOne() async {
        let clock = TestClock()
        let stopped = BFCancellationTokenSource()
        stopped.cancel(afterDelay: 50, clock: clock)
        stopped.cancel(afterDelay: -1, clock: clock)
        let stoppedCore = BFCancellationTokenSource()
        stoppedCore.cancel(after: .milliseconds(50), clock: clock)
        stoppedCore.cancel(afterDelay: -1)
        let replaced = BFCancellationTokenSource()
        let fired = Promise<Void, Never>()
        replaced.token.registerCancellationObserver { fired.success(()) }
        replaced.cancel(afterDelay: 50, clock: clock)
        replaced.cancel(afterDelay: 70, clock: clock)
        await clock.advance(by: .milliseconds(69))
        #expect(!stopped.isCancellationRequested, "-1 stopped the scheduled cancellation")
        #expect(!stoppedCore.isCancellationRequested, "-1 stops one scheduled by cancel(after:clock:) too")
        #expect(!replaced.isCancellationRequested, "the first timer was replaced")
        await clock.advance(by: .milliseconds(1))
        await fired.future.get()
        #expect(replaced.isCancellationRequested)
        #expect(!stopped.isCancellationRequested && !stoppedCore.isCancellationRequested)
    }
}
