import Dispatch
import Synchronization
import Testing

@testable import Futures

/// Records every event it hears, in order.
final class RecordingObserver: ConcurrencyLimiterObserver {
    private let recorded = Mutex<[ConcurrencyLimiter.Event]>([])

    var events: [ConcurrencyLimiter.Event] { recorded.withLock { $0 } }

    func observe(_ event: ConcurrencyLimiter.Event) {
        recorded.withLock { $0.append(event) }
    }

    /// The events with their durations left out (they are real time).
    var kinds: [String] {
        events.map { event in
            switch event {
            case .queued: "queued"
            case .started(let queuedFor): queuedFor == nil ? "started at once" : "started from the queue"
            case .finished: "finished"
            case .removed: "removed"
            case .refused: "refused"
            }
        }
    }
}

@Suite("ConcurrencyLimiter: observer and whenIdle()", .hangGuard())
struct ConcurrencyLimiterObserverTests {
    @Test func theObserverHearsEachItemWaitStartFinishBeRemovedAndBeRefused() {
        let observer = RecordingObserver()
        let limiter = ConcurrencyLimiter(maxConcurrent: 1, observer: observer)
        let first = Promise<Int, any Error>()
        _ = limiter.submit { first.future }
        let second = limiter.submit { Future<Int, any Error>(value: 2) }
        let third = limiter.submit { Future<Int, any Error>(value: 3) }
        #expect(observer.kinds == ["started at once", "queued", "queued"])
        third.requestCancellation()
        first.success(1)  // frees the slot: the second starts, and finishes at once
        #expect(second.isCompleted)
        limiter.close()
        _ = limiter.submit { Future<Int, any Error>(value: 4) }
        #expect(
            observer.kinds == [
                "started at once", "queued", "queued", "removed", "finished", "started from the queue", "finished",
                "refused",
            ])
        // The durations are measured: the second waited, in the queue, from its submission to its start.
        guard case .started(let waited?) = observer.events[5] else {
            Issue.record("not a start from the queue: \(observer.events[5])")
            return
        }
        #expect(waited > .zero)
    }

    @Test func closeReportsEveryQueuedItemAsRemoved() {
        let observer = RecordingObserver()
        let limiter = ConcurrencyLimiter(maxConcurrent: 1, observer: observer)
        let running = Promise<Int, any Error>()
        _ = limiter.submit { running.future }
        for value in 0..<3 { _ = limiter.submit { Future<Int, any Error>(value: value) } }
        limiter.close()
        #expect(observer.kinds.filter { $0 == "removed" }.count == 3)
        running.success(0)
        #expect(observer.kinds.last == "finished")
    }

    @Test func anItemWithADeadlineFinishesWhenItsWorkEnds() {
        let observer = RecordingObserver()
        let limiter = ConcurrencyLimiter(maxConcurrent: 1, observer: observer)
        let work = Promise<Int, any Error>()
        let item = limiter.submit(timeout: .seconds(600)) { work.future }
        #expect(observer.kinds == ["started at once"])
        work.success(1)
        #expect((try? item.forced().get()) == 1)
        #expect(observer.kinds == ["started at once", "finished"])
    }

    @Test func whenIdleCompletesOnceTheLastWorkEnds() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        #expect(limiter.whenIdle().isCompleted)  // nothing runs or waits
        let first = Promise<Int, any Error>()
        let second = Promise<Int, any Error>()
        let firstItem = limiter.submit { first.future }
        let secondItem = limiter.submit { second.future }
        let idle = limiter.whenIdle()
        #expect(idle === limiter.whenIdle())  // callers meanwhile share one future
        first.success(1)
        #expect(!idle.isCompleted)  // the second runs now
        second.success(2)
        #expect(idle.isCompleted)
        // The items' futures completed first.
        #expect(firstItem.isCompleted && secondItem.isCompleted)
    }

    @Test func afterCloseWhenIdleMeansDrained() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 2)
        let work = Promise<Int, any Error>()
        work.onCancellationRequested { DispatchQueue.global().async { work.tryFailure(FuturesError.cancelled) } }
        _ = limiter.submit { work.future }
        let drained = Promise<Void, Never>()
        limiter.close()  // queued work is dropped, running work is asked to stop
        limiter.whenIdle().onComplete(immediateExecutionContext) { _ in print("drained") }
        limiter.whenIdle().onComplete(immediateExecutionContext) { _ in drained.success(()) }
        _ = drained.future.forced()  // the work failed on another thread, as asked
        #expect(limiter.runningCount == 0)
    }
}
