import Dispatch
import Testing

@testable import Futures

/// What becomes of items that end unrun, and what the limiter releases when: typed items, `Never` items,
/// releases outside the lock (G7), failure traces.
@Suite("ConcurrencyLimiter: unrun items, releases, traces")
struct ConcurrencyLimiterLifecycleTests {
    /// A typed item submitted without `failingWith:` gets an `any Error` future: a request while it waits
    /// removes it unrun and fails it with `FuturesError.cancelled`.
    @Test func aTypedItemWithoutAnErrorIsRemovedByARequestAndFailsWithCancelled() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        let started = Counter()
        let typed: Future<Int, any Error> = limiter.submit { () -> Future<Int, ComboError> in
            started.increment()
            return Future(value: 1)
        }
        typed.requestCancellation()
        #expect(typed.error as? FuturesError == .cancelled)
        #expect(limiter.queuedCount == 0)
        blocker.success(0)
        #expect(started.value == 0)
        #expect(limiter.runningCount == 0 && limiter.queuedCount == 0)
    }

    /// A typed item's own failure passes through the `any Error` future unchanged, and so does a value.
    @Test func aTypedItemWithoutAnErrorPassesItsWorksOutcomeOn() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let work = Promise<Int, ComboError>()
        let pending = limiter.submit { work.future }
        let completed = limiter.submit { Future<Int, ComboError>(value: 3) }
        work.failure(.second)
        #expect(pending.error as? ComboError == .second)
        #expect(completed.value == 3)
    }

    /// The same through a consumer registered while a `failingWith:` item waits: the request removes it,
    /// and both fail with its error.
    @Test func aRequestThroughAConsumerOfAWaitingTypedItemRemovesIt() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        let started = Counter()
        let typed = limiter.submit(failingWith: ComboError.first) { () -> Future<Int, ComboError> in
            started.increment()
            return Future(value: 1)
        }
        let mapped = typed.map(immediateExecutionContext) { $0 + 1 }
        mapped.requestCancellation()
        #expect(typed.error == .first)
        #expect(mapped.error == .first)
        blocker.success(0)
        #expect(started.value == 0)
    }

    /// `cancelAll()` on typed items: the waiting ones fail with their `failingWith:` error, the running
    /// ones as their work decides; none is left pending.
    @Test func cancelAllLeavesNoTypedItemPending() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 2)
        let items = (0..<6).map { index in
            limiter.submit(failingWith: ComboError.second) { () -> Future<Int, ComboError> in
                let work = Promise<Int, ComboError>()
                work.onCancellationRequested { work.failure(.first) }
                return work.future
            }
        }
        limiter.cancelAll()
        #expect(items.allSatisfy { $0.isCompleted })
        #expect(items.prefix(2).allSatisfy { $0.error == .first })
        #expect(items.dropFirst(2).allSatisfy { $0.error == .second })
        #expect(limiter.runningCount == 0 && limiter.queuedCount == 0)
    }

    /// A `Never` item gets an `any Error` future: cancelled while it waits, it fails with
    /// `FuturesError.cancelled`, its callbacks run, and its work closure (and what it captured) is released
    /// at once, while the limiter lives on.
    @Test func aCancelledQueuedNeverItemFailsAndReleasesItsWork() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        weak var inCallback: GProbe?
        weak var inWork: GProbe?
        let heard = LockedBox<Result<Int, any Error>?>(nil)
        let item: Future<Int, any Error> = {
            let (callbackProbe, workProbe) = (GProbe(), GProbe())
            (inCallback, inWork) = (callbackProbe, workProbe)
            let item = limiter.submit { () -> Future<Int, Never> in
                _ = workProbe
                return Future(value: 1)
            }
            item.onComplete(immediateExecutionContext) { result in
                _ = callbackProbe
                heard.value = result
            }
            return item
        }()
        #expect(inCallback != nil && inWork != nil)
        item.requestCancellation()
        #expect(inWork == nil)
        #expect(inCallback == nil)
        #expect(item.error as? FuturesError == .cancelled)
        #expect((try? heard.value?.get()) == nil && heard.value != nil)
        #expect(limiter.queuedCount == 0)
        blocker.success(0)
        #expect(item.error as? FuturesError == .cancelled)
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
            // In turn: the re-entrant `cancelAll()` does not remove them, so the queue keeps live items.
            keepers.withValue { $0.append(limiter.submitInTurn { Future<Int, ReentrantError>(value: 0) }) }
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
