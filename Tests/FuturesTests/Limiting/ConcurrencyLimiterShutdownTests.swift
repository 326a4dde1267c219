import Clocks
import Testing

@testable import Futures

/// Every future a limiter hands out completes: what a closed limiter and a drain that gives up
/// (`endRunning()`, which `DrainingService` calls) do to each kind of item.
@Suite("ConcurrencyLimiter: every future completes", .hangGuard())
struct ConcurrencyLimiterShutdownTests {
    /// Work whose future ignores cancellation requests: it completes only when the test says so.
    final class Stubborn<E: Error>: Sendable {
        let promise = Promise<Int, E>()
        let asked = Counter()

        init() {
            let asked = self.asked
            promise.onCancellationRequested { asked.increment() }
        }
    }

    /// Ending the running items fails each one's future at once with `FuturesError.shutDown` (an
    /// `any Error` item, whatever its work's failure type, `Never` included) or its `failingWith:` error,
    /// frees its slot (the observer hears it finish, so a gauge returns to 0), completes `whenIdle()`, and
    /// lists each with its call site, oldest first. The work completing later changes nothing.
    @Test func endingTheRunningItemsFailsThemWithShutDownAndFreesTheirSlots() async {
        let observer = RecordingObserver()
        let limiter = ConcurrencyLimiter(maxConcurrent: 4, observer: observer)
        let untyped = Stubborn<any Error>()
        let never = Stubborn<Never>()
        let typed = Stubborn<ComboError>()
        let timed = Stubborn<any Error>()
        let clock = TestClock()
        let (first, firstLine) = (limiter.submit { untyped.promise.future }, UInt(#line))
        let (second, secondLine) = (limiter.submit { never.promise.future }, UInt(#line))
        let third = limiter.submit(failingWith: ComboError.second) { typed.promise.future }
        let fourth = limiter.submit(timeout: .seconds(60), clock: clock) { timed.promise.future }
        let idle = limiter.whenIdle()
        let left = limiter.endRunning()
        #expect(limiter.isClosed)
        #expect(untyped.asked.value == 1 && never.asked.value == 1 && typed.asked.value == 1, "closed first")
        #expect(first.error as? FuturesError == .shutDown)
        #expect(second.error as? FuturesError == .shutDown)
        #expect(third.error == .second)
        #expect(fourth.error as? FuturesError == .shutDown)
        #expect(limiter.runningCount == 0 && idle.isCompleted)
        #expect(left.count == 4)
        let here = "FuturesTests/ConcurrencyLimiterShutdownTests.swift"
        #expect(left.prefix(2).map { "\($0.file):\($0.line)" } == ["\(here):\(firstLine)", "\(here):\(secondLine)"])
        #expect(left.allSatisfy { $0.age >= .zero })
        let started = observer.kinds.filter { $0 == "started at once" }.count
        let finished = observer.kinds.filter { $0 == "finished" }.count
        #expect(started == 4 && finished == 4)
        // The work ends later: nothing more happens.
        untyped.promise.success(1)
        never.promise.success(2)
        typed.promise.success(3)
        timed.promise.success(4)
        #expect(first.error as? FuturesError == .shutDown && third.error == .second)
        #expect(observer.kinds.filter { $0 == "finished" }.count == 4)
        #expect(limiter.endRunning().isEmpty, "nothing left the second time")
    }

    /// Work that already completed is not a leftover, and its future keeps its outcome; a pending one is.
    @Test func completedWorkIsNotALeftover() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 2)
        let done = limiter.submit { Future<Int, Never>(value: 1) }
        let pending = Stubborn<Never>()
        let running = limiter.submit { pending.promise.future }
        #expect(limiter.runningLeftovers().count == 1)
        let left = limiter.endRunning()
        #expect(left.count == 1)
        #expect(done.value == 1)
        #expect(running.error as? FuturesError == .shutDown)
    }

    /// Listing the running items leaves them running: their futures stay pending and their slots taken.
    @Test func listingTheRunningItemsLeavesThemRunning() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 2)
        let pending = Stubborn<any Error>()
        let item = limiter.submit { pending.promise.future }
        limiter.close()
        let listed = limiter.runningLeftovers()
        #expect(listed.count == 1 && listed.first?.file == "FuturesTests/ConcurrencyLimiterShutdownTests.swift")
        #expect(item.result == nil && limiter.runningCount == 1)
        pending.promise.success(5)
        #expect(item.value == 5 && limiter.runningCount == 0)
    }

    /// Every item of a closed limiter completes, whatever its work's failure type: queued ones when the
    /// limiter closes, later ones at once, running ones as their work decides, and `whenIdle()` completes
    /// only after all of them.
    @Test func everyItemOfAClosedLimiterCompletes() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        let running = limiter.submit { blocker.future }
        let queuedNever = limiter.submit { Future<Int, Never>(value: 1) }
        let queuedTyped = limiter.submit { Future<Int, ComboError>(value: 1) }
        let queuedAsync = limiter.submit { () async -> Int in 1 }
        let queuedTypedError = limiter.submit(failingWith: ComboError.first) { Future<Int, ComboError>(value: 1) }
        limiter.close()
        let refusedNever = limiter.submit { Future<Int, Never>(value: 1) }
        let refusedTyped = limiter.submit(failingWith: ComboError.second) { Future<Int, ComboError>(value: 1) }
        let refusedAsync = limiter.submit(failingWith: ComboError.second) { () async throws(ComboError) -> Int in 1 }
        for future in [queuedNever, queuedTyped, queuedAsync, refusedNever] {
            #expect(future.error as? FuturesError == .cancelled)
        }
        #expect(queuedTypedError.error == .first)
        #expect(refusedTyped.error == .second && refusedAsync.error == .second)
        let idle = limiter.whenIdle()
        #expect(!idle.isCompleted && running.result == nil)
        blocker.success(7)
        #expect(running.value == 7 && idle.isCompleted)
    }
}
