import Clocks
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Futures

@Suite("ConcurrencyLimiter: close()")
struct ConcurrencyLimiterCloseTests {
    @Test func closeDropsTheQueuedAsksTheRunningAndRefusesLaterSubmissions() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 2)
        let asked = Counter()
        let started = Counter()
        let works = (0..<2).map { _ in Promise<Int, any Error>() }
        for work in works { work.onCancellationRequested { asked.increment() } }
        let running = works.map { work in limiter.submit { work.future } }
        let queued = (0..<3).map { _ in
            limiter.submit { () -> Future<Int, any Error> in
                started.increment()
                return Future(value: 0)
            }
        }
        let typed = limiter.submit(failingWith: ComboError.second) { Future<Int, ComboError>(value: 0) }
        #expect(!limiter.isClosed)
        limiter.close()
        #expect(limiter.isClosed)
        #expect(queued.allSatisfy { $0.error as? FuturesError == .cancelled })
        #expect(typed.error == .second)
        #expect(asked.value == 2)
        #expect(limiter.queuedCount == 0 && limiter.runningCount == 2)
        // The running work decides how it ends; freeing its slot starts nothing.
        works[0].success(5)
        works[1].failure(FuturesError.cancelled)
        #expect(running[0].value == 5)
        #expect(running[1].error as? FuturesError == .cancelled)
        #expect(limiter.runningCount == 0)
        // Later submissions fail at once, unrun.
        let later = limiter.submit { () -> Future<Int, any Error> in
            started.increment()
            return Future(value: 0)
        }
        #expect(later.error as? FuturesError == .cancelled)
        let laterTyped = limiter.submit(failingWith: ComboError.first) { Future<Int, ComboError>(value: 0) }
        #expect(laterTyped.error == .first)
        #expect(started.value == 0)
        limiter.close()  // again: nothing happens
        #expect(limiter.isClosed)
    }

    /// An item submitted in turn (the engine of `traverse(maxConcurrent:)`) keeps its place whatever
    /// requests reach its future while it waits, even a `Never` one (which a request would otherwise
    /// remove): it starts in turn, and its work is asked at once. A request through a consumer registered
    /// while it waits reaches it too. `close()` still drops it unrun.
    @Test func anItemSubmittedInTurnKeepsItsPlaceOnARequestAndIsDroppedByClose() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        let work = CancelCountingFuture<Int, Never>()
        let started = Counter()
        let waiting = limiter.submitInTurn { () -> Future<Int, Never> in
            started.increment()
            return work.future
        }
        let consumer = waiting.map(immediateExecutionContext) { $0 }
        consumer.requestCancellation()
        #expect(limiter.queuedCount == 1 && started.value == 0)
        blocker.success(0)
        #expect(started.value == 1)
        #expect(work.cancellations.value == 1, "asked as it starts")
        work.success(7)
        #expect(consumer.value == 7)

        let blocker2 = Promise<Int, any Error>()
        _ = limiter.submit { blocker2.future }
        let dropped = limiter.submitInTurn { () -> Future<Int, any Error> in
            started.increment()
            return Future(value: 0)
        }
        limiter.close()
        #expect(dropped.error as? FuturesError == .cancelled)
        #expect(started.value == 1)
        blocker2.success(0)
    }

    /// `Never` items and typed items without `failingWith:` get `any Error` futures: `close()` fails the
    /// waiting ones with `FuturesError.cancelled` and releases their closures unrun, and a later submission
    /// fails at once the same way.
    @Test func neverAndUntypedItemsFailWithCancelledWhenClosed() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        weak var probe: GProbe?
        let ran = Counter()
        let heard = Counter()
        let (never, typed): (Future<Int, any Error>, Future<Int, any Error>) = {
            let captured = GProbe()
            probe = captured
            let never = limiter.submit { () -> Future<Int, Never> in
                _ = captured
                ran.increment()
                return Future(value: 1)
            }
            let typed = limiter.submit { () -> Future<Int, ComboError> in
                _ = captured
                ran.increment()
                return Future(value: 1)
            }
            typed.onComplete(immediateExecutionContext) { _ in
                _ = captured
                heard.increment()
            }
            return (never, typed)
        }()
        limiter.close()
        #expect(probe == nil)
        #expect(heard.value == 1)
        blocker.success(0)
        #expect(ran.value == 0)
        #expect(never.error as? FuturesError == .cancelled && typed.error as? FuturesError == .cancelled)
        let late = limiter.submit { () -> Future<Int, Never> in
            ran.increment()
            return Future(value: 1)
        }
        #expect(ran.value == 0 && late.error as? FuturesError == .cancelled)
        #expect(limiter.whenIdle().isCompleted)
    }

    /// A callback that `close()` triggers may submit: the submission fails at once, and nothing starts.
    @Test func submittingFromACallbackOfCloseStartsNothing() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, any Error>()
        _ = limiter.submit { blocker.future }
        let started = Counter()
        let resubmitted = LockedBox<Future<Int, any Error>?>(nil)
        let queued = limiter.submit { Future<Int, any Error>(value: 0) }
        queued.onFailure(immediateExecutionContext) { _ in
            resubmitted.value = limiter.submit { () -> Future<Int, any Error> in
                started.increment()
                return Future(value: 0)
            }
        }
        limiter.close()
        #expect(resubmitted.value?.error as? FuturesError == .cancelled)
        blocker.success(0)
        #expect(started.value == 0)
    }

    /// Threads keep submitting (items with deadlines on a test clock, which fire while the limiter closes)
    /// and one thread closes the limiter: every item completes or is released, the bound holds at the work,
    /// submissions after `close()` returned fail at once, and once the items running at the close have
    /// ended, no work ever starts again. Run under ThreadSanitizer:
    /// `swift test --sanitize=thread --filter ConcurrencyLimiterCloseTests --scratch-path .build-tsan`.
    @Test(.hangGuard()) func noWorkStartsAfterCloseUnderConcurrency() async {
        let bound = 3
        let threads = 4
        let perThread = 300
        let limiter = ConcurrencyLimiter(maxConcurrent: bound)
        let clock = TestClock()
        let work = WorkMeter()
        let closeReturned = Atomic<Bool>(false)
        let refusedLate = Counter()
        let acceptedLate = Counter()
        let settled = Counter()
        let allSettled = AsyncGate()
        let total = threads * perThread
        for thread in 0..<threads {
            Thread {
                for index in 0..<perThread {
                    let wasClosed = closeReturned.load(ordering: .acquiring)
                    let future = limiter.submit(timeout: .seconds(1), clock: clock) {
                        work.start(slow: (thread + index) % 3 == 0)
                    }
                    if wasClosed {
                        if future.error as? FuturesError == .cancelled {
                            refusedLate.increment()
                        } else {
                            acceptedLate.increment()
                        }
                    }
                    future.onComplete(immediateExecutionContext) { _ in
                        if settled.increment() == total { allSettled.open() }
                    }
                }
            }.start()
        }
        // Deadlines fire on another thread while the limiter closes.
        for _ in 0..<20 { await clock.advance(by: .seconds(1)) }
        limiter.close()
        closeReturned.store(true, ordering: .releasing)
        while settled.value < total { await clock.advance(by: .seconds(1)) }
        await allSettled.wait()
        await work.drained(limiter)
        let startedAfterDrain = work.started
        #expect(limiter.runningCount == 0 && limiter.queuedCount == 0)
        // Nothing can start any more: submit again, fire more deadlines.
        for _ in 0..<100 {
            _ = limiter.submit(timeout: .seconds(1), clock: clock) { work.start(slow: false) }
        }
        await clock.advance(by: .seconds(5))
        #expect(work.started == startedAfterDrain)
        #expect(work.peak <= bound)
        #expect(acceptedLate.value == 0)
        #expect(refusedLate.value + work.started <= total)
    }
}

/// A fake producer that counts its own running pieces of work (from start to the completion of its
/// future) and the most that ever ran at once. A slow piece ends only once asked to cancel, and then
/// later, on another thread (like a connection that takes a while to close).
final class WorkMeter: Sendable {
    private let running = Atomic<Int>(0)
    private let peakValue = Atomic<Int>(0)
    private let startedCount = Atomic<Int>(0)
    private let endedCount = Atomic<Int>(0)

    var peak: Int { peakValue.load(ordering: .acquiring) }
    var started: Int { startedCount.load(ordering: .acquiring) }
    var ended: Int { endedCount.load(ordering: .acquiring) }

    func start(slow: Bool) -> Future<Int, any Error> {
        startedCount.add(1, ordering: .sequentiallyConsistent)
        let now = running.add(1, ordering: .sequentiallyConsistent).newValue
        _ = peakValue.max(now, ordering: .sequentiallyConsistent)
        let promise = Promise<Int, any Error>()
        let end: @Sendable (Result<Int, any Error>) -> Void = { [self] result in
            running.subtract(1, ordering: .sequentiallyConsistent)
            endedCount.add(1, ordering: .sequentiallyConsistent)
            promise.complete(result)
        }
        if slow {
            promise.onCancellationRequested {
                DispatchQueue.global().async { end(.failure(FuturesError.cancelled)) }
            }
        } else {
            DispatchQueue.global().async { end(.success(1)) }
        }
        return promise.future
    }

    /// Waits until every piece of work that started has ended and `limiter` has freed their slots (call
    /// once every started piece was completed or asked to cancel).
    func drained(_ limiter: ConcurrencyLimiter) async {
        while started != ended || limiter.runningCount > 0 { await Task.yield() }
    }
}
