import Dispatch
import Testing

@testable import Futures

/// What becomes of items that end unrun, and what the limiter releases when: typed items without a
/// cancellation error, `Never` items, releases outside the lock (G7), failure traces.
@Suite("ConcurrencyLimiter: unrun items, releases, traces")
struct ConcurrencyLimiterLifecycleTests {
    /// A typed item submitted without `failingWith:` cannot be failed unrun: a request keeps its place, and
    /// when it starts the request reaches its work at once, which decides how it ends. It always completes.
    @Test func aCancelledQueuedTypedItemWithoutAnErrorStartsInTurnAndItsWorkIsAskedAtOnce() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        let started = Counter()
        let typed = limiter.submit { () -> Future<Int, ComboError> in
            started.increment()
            let work = Promise<Int, ComboError>()
            work.onCancellationRequested { work.failure(.second) }
            return work.future
        }
        typed.requestCancellation()
        #expect(typed.result == nil)
        #expect(limiter.queuedCount == 1)  // it keeps its place
        blocker.success(0)
        #expect(started.value == 1)
        #expect(typed.error == .second)  // as the work decided
        #expect(limiter.runningCount == 0 && limiter.queuedCount == 0)
    }

    /// The same through a consumer registered while the item waits: its request reaches the work too.
    @Test func aRequestThroughAConsumerOfAWaitingTypedItemReachesItsWork() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        let typed = limiter.submit { () -> Future<Int, ComboError> in
            let work = Promise<Int, ComboError>()
            work.onCancellationRequested { work.failure(.second) }
            return work.future
        }
        let mapped = typed.map(immediateExecutionContext) { $0 + 1 }
        mapped.requestCancellation()
        blocker.success(0)
        #expect(mapped.error == .second)
    }

    /// The same through `cancelAll()`: every typed item completes, none is left pending.
    @Test func cancelAllLeavesNoTypedItemPending() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 2)
        let items = (0..<6).map { index in
            limiter.submit { () -> Future<Int, ComboError> in
                let work = Promise<Int, ComboError>()
                work.onCancellationRequested { work.failure(.first) }
                if index == 5 { work.success(index) }
                return work.future
            }
        }
        limiter.cancelAll()
        #expect(items.allSatisfy { $0.isCompleted })
        #expect(items.prefix(5).allSatisfy { $0.error == .first })
    }

    /// A `Never` item cancelled while it waits cannot fail: its future never completes, and its callbacks
    /// (and what they captured) are released at once, while the limiter and the future live on.
    @Test func aCancelledQueuedNeverItemReleasesItsCallbacksWhileTheLimiterLives() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        weak var inCallback: GProbe?
        weak var inWork: GProbe?
        let item: Future<Int, Never> = {
            let (callbackProbe, workProbe) = (GProbe(), GProbe())
            (inCallback, inWork) = (callbackProbe, workProbe)
            let item = limiter.submit { () -> Future<Int, Never> in
                _ = workProbe
                return Future(value: 1)
            }
            item.onComplete(immediateExecutionContext) { _ in _ = callbackProbe }
            return item
        }()
        #expect(inCallback != nil && inWork != nil)
        item.requestCancellation()
        #expect(inWork == nil)
        #expect(inCallback == nil)
        #expect(item.result == nil)
        #expect(limiter.queuedCount == 0)
        blocker.success(0)
        #expect(item.result == nil)
    }

    /// G7: a cancelled queued item is released after the limiter's lock: here its cancellation error holds
    /// an object whose `deinit` submits to and cancels the limiter. Removals by one (popped later) and by
    /// many (compacted) both release nothing under the lock.
    @Test(.hangGuard(), arguments: [1, 100])
    func releasingCancelledQueuedItemsMayCallBackIntoTheLimiter(_ count: Int) {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        let reentered = Counter()
        let keepers = LockedBox<[Future<Int, ReentrantError>]>([])
        for _ in 0..<count {
            let error = ReentrantError(LimiterReentrant(limiter: limiter, log: reentered))
            let item = limiter.submit(failingWith: error) { Future<Int, ReentrantError>(value: 0) }
            keepers.withValue { $0.append(limiter.submit(failingWith: nil) { Future<Int, ReentrantError>(value: 0) }) }
            item.requestCancellation()
            #expect(item.isFailure)
        }
        blocker.success(0)  // pops (or has compacted) the removed items' slots
        #expect(reentered.value == count)
        #expect(limiter.queuedCount == 0 && limiter.runningCount == 0)
        #expect(keepers.value.allSatisfy { $0.value == 0 })
    }

    /// A submission's future carries a failure trace: `submit` at its call site, after the work's steps.
    @Test func submitsFutureCarriesAFailureTrace() {
        FuturesDiagnostics.withFailureTracing {
            let here = "FuturesTests/ConcurrencyLimiterLifecycleTests.swift"
            let limiter = ConcurrencyLimiter(maxConcurrent: 1)
            let (promise, p) = (Promise<Int, any Error>(), UInt(#line))
            let (mapped, m) = (promise.future.map(immediateExecutionContext) { $0 + 1 }, UInt(#line))
            let (item, s) = (limiter.submit { mapped }, UInt(#line))
            let (queued, q) = (limiter.submit { Future<Int, any Error>(value: 1) }, UInt(#line))
            queued.requestCancellation()
            #expect(queued.failureTrace?.steps == [.init(name: "submit", file: here, line: q)])
            #expect(queued.failureTrace?.isComplete == true)
            promise.failure(ComboError.first)
            #expect(
                item.failureTrace?.steps == [
                    .init(name: "Promise", file: here, line: p), .init(name: "map", file: here, line: m),
                    .init(name: "submit", file: here, line: s),
                ])
            // Work whose future is not traced: the trace is marked incomplete.
            let (untraced, u) = (limiter.submit { Future<Int, any Error>(error: ComboError.second) }, UInt(#line))
            #expect(untraced.failureTrace?.steps == [.init(name: "submit", file: here, line: u)])
            #expect(untraced.failureTrace?.isComplete == false)
        }
    }
}

/// An error that holds an object (which `deinit`s when the error is released).
struct ReentrantError: Error {
    let holder: LimiterReentrant
    init(_ holder: LimiterReentrant) { self.holder = holder }
}

/// Calls into its limiter from `deinit`: deadlocks if released under the limiter's lock.
final class LimiterReentrant: Sendable {
    let limiter: ConcurrencyLimiter
    let log: Counter
    init(limiter: ConcurrencyLimiter, log: Counter) {
        self.limiter = limiter
        self.log = log
    }
    deinit {
        _ = limiter.queuedCount
        limiter.cancelAll()
        log.increment()
    }
}
