import Dispatch
import Foundation
import Testing

@testable import Futures

@Suite("ConcurrencyLimiter")
struct ConcurrencyLimiterTests {
    /// Submits work backed by promises the test completes; `started` records each item's tag at start.
    final class Harness: Sendable {
        let limiter: ConcurrencyLimiter
        let started = Recorder<Int>()
        let promises = LockedBox<[Int: Promise<Int, any Error>]>([:])

        init(maxConcurrent: Int) {
            limiter = ConcurrencyLimiter(maxConcurrent: maxConcurrent)
        }

        func submit(_ tag: Int, priority: ConcurrencyLimiter.Priority = .normal) -> Future<Int, any Error> {
            limiter.submit(priority: priority) { [self] in
                started.append(tag)
                let promise = Promise<Int, any Error>()
                promises.withValue { $0[tag] = promise }
                return promise.future
            }
        }

        func finish(_ tag: Int) {
            let promise = promises.withValue { $0.removeValue(forKey: tag) }
            promise?.success(tag)
        }
    }

    @Test func runsAtMostMaxConcurrentAndStartsTheRestInSubmissionOrder() {
        let harness = Harness(maxConcurrent: 3)
        let futures = (0..<8).map { harness.submit($0) }
        #expect(harness.started.values == [0, 1, 2])
        #expect(harness.limiter.runningCount == 3 && harness.limiter.queuedCount == 5)
        harness.finish(1)
        #expect(futures[1].value == 1)
        #expect(harness.started.values == [0, 1, 2, 3])
        harness.finish(0)
        harness.finish(3)
        #expect(harness.started.values == [0, 1, 2, 3, 4, 5])
        #expect(harness.limiter.runningCount == 3 && harness.limiter.queuedCount == 2)
        for tag in [2, 4, 5, 6, 7] { harness.finish(tag) }
        #expect(futures.map(\.value) == Array(0..<8))
        #expect(harness.limiter.runningCount == 0 && harness.limiter.queuedCount == 0)
    }

    @Test func higherPrioritiesStartFirstAndEachPriorityInSubmissionOrder() {
        let harness = Harness(maxConcurrent: 1)
        _ = harness.submit(0)
        _ = harness.submit(1, priority: .low)
        _ = harness.submit(2, priority: .normal)
        _ = harness.submit(3, priority: .high)
        _ = harness.submit(4, priority: .low)
        _ = harness.submit(5, priority: .high)
        _ = harness.submit(6)
        for tag in [0, 3, 5, 2, 6, 1, 4] { harness.finish(tag) }
        #expect(harness.started.values == [0, 3, 5, 2, 6, 1, 4])
    }

    @Test func maxConcurrentBelowOneCountsAsOne() {
        for bound in [0, -5] {
            let harness = Harness(maxConcurrent: bound)
            #expect(harness.limiter.maxConcurrent == 1)
            _ = harness.submit(0)
            _ = harness.submit(1)
            #expect(harness.started.values == [0])
            harness.finish(0)
            #expect(harness.started.values == [0, 1])
            harness.finish(1)
        }
    }

    @Test func failuresOfTheWorkArePassedOnAndFreeTheSlot() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let failing = limiter.submit(failingWith: ComboError.second) { Future<Int, ComboError>(error: .first) }
        let next = limiter.submit(failingWith: ComboError.second) { Future<Int, ComboError>(value: 2) }
        #expect(failing.error == .first)
        #expect(next.value == 2)
        #expect(limiter.runningCount == 0)
    }

    @Test func cancellingAQueuedItemRemovesItWithoutStartingIt() {
        let harness = Harness(maxConcurrent: 1)
        _ = harness.submit(0)
        let queued = harness.submit(1)
        _ = harness.submit(2)
        queued.requestCancellation()
        #expect(queued.error as? FuturesError == .cancelled)
        #expect(harness.limiter.queuedCount == 1)
        harness.finish(0)
        #expect(harness.started.values == [0, 2])
        harness.finish(2)
    }

    @Test func aQueuedItemOfAnotherErrorTypeFailsWithTheGivenErrorAndANeverItemWithCancelled() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        let typed = limiter.submit(failingWith: ComboError.second) { Future<Int, ComboError>(value: 1) }
        typed.requestCancellation()
        #expect(typed.error == .second)

        weak var probe: GProbe?
        let neverFailing: Future<Int, any Error> = {
            let captured = GProbe()
            probe = captured
            return limiter.submit {
                _ = captured
                return Future<Int, Never>(value: 1)
            }
        }()
        let ran = Counter()
        neverFailing.onComplete(immediateExecutionContext) { _ in ran.increment() }
        neverFailing.requestCancellation()
        #expect(probe == nil)  // the closure is released unrun
        #expect(neverFailing.error as? FuturesError == .cancelled)
        #expect(ran.value == 1)
        #expect(limiter.queuedCount == 0)
        blocker.success(0)
        #expect(ran.value == 1)
    }

    @Test func cancellingARunningItemReachesItsWorkAndTheSlotFreesWhenTheWorkEnds() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let asked = Counter()
        let work = Promise<Int, any Error>()
        work.onCancellationRequested { asked.increment() }
        let running = limiter.submit { work.future }
        let queued = limiter.submit { Future<Int, any Error>(value: 2) }
        running.map { $0 + 1 }.requestCancellation()  // through a derived future: the consumer rule
        #expect(asked.value == 1)
        #expect(limiter.runningCount == 1 && queued.result == nil)
        work.failure(FuturesError.cancelled)
        #expect(running.error as? FuturesError == .cancelled)
        #expect(queued.value == 2)
    }

    @Test func aRequestMadeWhileTheWorkClosureRunsReachesTheWork() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let asked = Counter()
        let holder = LockedBox<Future<Int, any Error>?>(nil)
        let work = Promise<Int, any Error>()
        work.onCancellationRequested { asked.increment() }
        let blocker = Promise<Int, any Error>()
        _ = limiter.submit { blocker.future }
        let item = limiter.submit {
            holder.value?.requestCancellation()  // the item is no longer queued: nothing to remove
            return work.future
        }
        holder.value = item
        blocker.success(0)
        #expect(asked.value == 1)
        #expect(item.result == nil)
        work.success(3)
        #expect(item.value == 3)
    }

    @Test func cancelAllRemovesTheQueuedAsksTheRunningAndLeavesTheLimiterUsable() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 2)
        let asked = Counter()
        let works = (0..<2).map { _ in Promise<Int, any Error>() }
        for work in works { work.onCancellationRequested { asked.increment() } }
        let started = Counter()
        let running = works.map { work in limiter.submit { work.future } }
        let queued = (0..<5).map { _ in
            limiter.submit { () -> Future<Int, any Error> in
                started.increment()
                return Future(value: 0)
            }
        }
        limiter.cancelAll()
        #expect(asked.value == 2)
        #expect(queued.allSatisfy { $0.error as? FuturesError == .cancelled })
        #expect(limiter.queuedCount == 0 && limiter.runningCount == 2)
        for work in works { work.failure(FuturesError.cancelled) }
        #expect(running.allSatisfy { $0.isFailure })
        #expect(started.value == 0)
        let later = limiter.submit { Future<Int, any Error>(value: 7) }
        #expect(later.value == 7)
    }

    @Test func asyncWorkRunsInATaskAndItsCancellationCancelsTheTask() async throws {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let value = try await limiter.submit { () async throws -> Int in 42 }.get()
        #expect(value == 42)

        let entered = AsyncGate()
        let running = limiter.submit { () async throws -> Int in
            entered.open()
            try await Task.sleep(for: .seconds(600))
            return 0
        }
        await entered.wait()
        running.requestCancellation()
        await #expect(throws: CancellationError.self) { try await running.get() }
        #expect(limiter.runningCount == 0)
    }

    @Test func thousandsOfItemsCompletingAtOnceStartInBoundedStack() {
        let count = 200_000
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        let done = Counter()
        for index in 0..<count {
            limiter.submit { Future<Int, Never>(value: index) }.onSuccess(immediateExecutionContext) { _ in
                done.increment()
            }
        }
        #expect(limiter.queuedCount == count)
        blocker.success(0)  // each item completes at once and starts the next: a cascade of `count` steps
        #expect(done.value == count)
        #expect(limiter.runningCount == 0 && limiter.queuedCount == 0)
    }

    /// Removing queued items costs O(1) amortised, and removed items do not pile up in storage.
    @Test(arguments: [10_000, 100_000])
    func cancellingQueuedItemsCostsLinearWorkAndBoundedStorage(_ count: Int) {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, Never>()
        _ = limiter.submit { blocker.future }
        var largest = 0
        for index in 0..<count {
            let item = limiter.submit { Future<Int, Never>(value: index) }
            let keeper = limiter.submit { Future<Int, Never>(value: index) }
            item.requestCancellation()
            _ = keeper
            largest = max(largest, limiter.storedSlots - limiter.queuedCount)
        }
        #expect(limiter.queuedCount == count)
        #expect(largest <= count + 64)  // tombstones never outnumber the live items by more than a constant
        blocker.success(0)
        #expect(limiter.queuedCount == 0)
        // Appends, removals, compactions and pops: a constant per item.
        #expect(limiter.steps <= 8 * count)
    }
}

/// Opens once; `wait()` returns once it has opened.
final class AsyncGate: Sendable {
    private let state = LockedBox<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withValue { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withValue { state -> Bool in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}
