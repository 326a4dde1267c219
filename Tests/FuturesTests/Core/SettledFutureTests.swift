import Dispatch
import Foundation
import Testing

@testable import Futures

/// A settled future (completed, its value in the cell, no hand-out in progress) is read
/// without its lock — by `result`/`value` and by the combinators' fast path — and its storage is never
/// written again (see *Settled futures* in Future+Storage.swift).
@Suite struct SettledFutureTests {
    final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// Runs `read` on another thread while this thread holds `future`'s lock, and returns what it read,
    /// or `nil` if the read did not finish within the time limit (it waited for the lock). The limit only
    /// decides the failure; a passing read returns at once.
    func readWhileLocked<T, E, R: Sendable>(_ future: Future<T, E>, _ read: @escaping @Sendable () -> R) -> R? {
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedBox<R?>(nil)
        future.lock.lock()
        Thread.detachNewThread {
            outcome.withValue { $0 = read() }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 30) == .success
        future.lock.unlock()
        if !finished { done.wait() }
        return finished ? outcome.value : nil
    }

    @Test(arguments: [false, true])
    func aSettledSuccessIsReadWithoutTheLock(completedAtCreation: Bool) {
        let future: Future<Int, any Error>
        if completedAtCreation {
            future = Future(value: 42)
        } else {
            let promise = Promise<Int, any Error>()
            promise.success(42)
            future = promise.future
        }
        #expect(readWhileLocked(future) { future.value } == 42)
        #expect(readWhileLocked(future) { future.map(immediateExecutionContext) { $0 + 1 }.value } == 43)
        #expect(
            readWhileLocked(future) { future.flatMap(immediateExecutionContext) { Future(value: $0 + 2) }.value } == 44)
    }

    /// A failure is read under the lock, because reading it marks it observed: with the lock held, the
    /// read waits, and once released it completes and the failure counts as observed (no report).
    @Test func aSettledFailureIsReadUnderTheLockAndMarkedObserved() {
        let (_, diagnostics) = gDiagnosing { () -> Void in
            let future = Future<Int, FuturesError>(error: .cancelled)
            let done = DispatchSemaphore(value: 0)
            future.lock.lock()
            Thread.detachNewThread {
                _ = future.result
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 0.2) == .timedOut)  // it waits for the lock
            future.lock.unlock()
            done.wait()
            #expect(future.observed)
        }
        #expect(diagnostics.isEmpty, "got \(diagnostics)")
    }

    /// `value` of a failed future is `nil`, and reading it counts as looking at the failure, as reading
    /// `result` does: the failure is marked observed and never reported, whether the future was created
    /// failed or failed later.
    @Test(arguments: [false, true])
    func readingTheValueOfAFailureMarksItObserved(completedAtCreation: Bool) {
        let (_, diagnostics) = gDiagnosing { () -> Void in
            let future: Future<Int, FuturesError>
            if completedAtCreation {
                future = Future(error: .cancelled)
            } else {
                let promise = Promise<Int, FuturesError>()
                future = promise.future
                promise.failure(.cancelled)
            }
            #expect(!future.observed)
            #expect(future.value == nil)
            #expect(future.observed)
        }
        #expect(diagnostics.isEmpty, "got \(diagnostics)")
    }

    /// While the completer hands callbacks out to other contexts the future is not settled: a read takes
    /// the lock, and a callback for another context registered meanwhile queues behind them (the late
    /// list, which rewrites the words). Once the hand-out is over it is settled.
    @Test func aFutureHandingOutIsNotSettledUntilTheHandOutEnds() {
        let promise = Promise<Int, Never>()
        let future = promise.future
        let order = LockedBox<[String]>([])
        let bitsDuringHandOut = LockedBox<UInt16>(0)
        let context = ExecutionContext { task in
            // Called by the completer during its hand-out.
            future.lock.lock()
            bitsDuringHandOut.withValue { $0 = future.flags & Future<Int, Never>.settledMask }
            future.lock.unlock()
            // A registration racing the hand-out: queued behind it, not run at once.
            future.onSuccess(
                ExecutionContext { late in
                    order.withValue { $0.append("late handed") }
                    late()
                }
            ) { _ in
                order.withValue { $0.append("late ran") }
            }
            order.withValue { $0.append("first handed") }
            task()
        }
        future.onSuccess(context) { _ in order.withValue { $0.append("first ran") } }
        promise.success(1)
        #expect(bitsDuringHandOut.value & Future<Int, Never>.Flags.handingOut != 0)
        #expect(bitsDuringHandOut.value != Future<Int, Never>.settledSuccess)
        future.lock.lock()
        let bitsAfter = future.flags & Future<Int, Never>.settledMask
        future.lock.unlock()
        #expect(bitsAfter == Future<Int, Never>.settledSuccess)
        #expect(order.value == ["first handed", "first ran", "late handed", "late ran"])
        #expect(readWhileLocked(future) { future.value } == 1)
    }

    /// A settled future's words are never written: every locked access works on a copy. A value with a
    /// reference is retained by each reader and released exactly once with the future.
    @Test func readersRetainAndTheFutureReleasesOnce() {
        weak var weakBox: Box?
        do {
            let box = Box(5)
            weakBox = box
            let future = Future<Box, Never>(value: box)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<1_000 {
                    #expect(future.value?.value == 5)
                    #expect(future.map(immediateExecutionContext) { $0.value }.value == 5)
                    future.onSuccess(immediateExecutionContext) { #expect($0.value == 5) }
                }
            }
        }
        #expect(weakBox == nil)
    }

    /// Completion racing lock-free readers on more threads than cores (run under TSan in CI): every
    /// reader sees either nothing or the value, never a torn one, and the value is released once.
    @Test(.hangGuard()) func completionRacingReadersWithoutTheLock() {
        for round in 0..<200 {
            weak var weakBox: Box?
            do {
                let box = Box(round)
                weakBox = box
                let promise = Promise<Box, Never>()
                let seen = LockedBox(0)
                DispatchQueue.concurrentPerform(iterations: 4) { index in
                    if index == 0 {
                        promise.success(box)
                    } else {
                        var value: Box?
                        while value == nil { value = promise.future.value }
                        if value?.value == round { seen.withValue { $0 += 1 } }
                        let mapped = promise.future.map(immediateExecutionContext) { $0.value }
                        if mapped.value == round { seen.withValue { $0 += 1 } }
                    }
                }
                #expect(seen.value == 6)
            }
            #expect(weakBox == nil)
        }
    }
}

/// `forced()` watches the completed bit for a short while (``Future/spinBeforeBlockingNanoseconds``)
/// before it blocks, so a completion another thread is about to make needs no wake-up.
@Suite struct ForcedSpinTests {
    /// A completion that lands while `forced()` watches, and one that lands after it blocked, both
    /// return the result; the value is released once (the read without the lock retains it).
    @Test(.hangGuard()) func forcedReturnsACompletionMadeWhileItWatchesOrAfterItBlocks() {
        let queue = DispatchQueue(label: "completer")
        for round in 0..<2_000 {
            let promise = Promise<SettledFutureTests.Box, Never>()
            let box = SettledFutureTests.Box(round)
            // Every 100th round, the completer waits for the waiter to block first (a wake-up is needed).
            let afterBlocking = round % 100 == 0
            queue.async {
                if afterBlocking {
                    while !promise.future.hasRegisteredWaiterForTesting {}
                }
                promise.success(box)
            }
            #expect(promise.future.forced().get().value == round)
        }
    }

    /// A future nobody completes while `forced(deadline)`… is not affected: the spin is only in the
    /// unbounded `forced()`; a pending future still blocks, and is woken by a later completion.
    @Test(.hangGuard()) func aLongWaitStillBlocksAndIsWoken() {
        let promise = Promise<Int, Never>()
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedBox(0)
        Thread.detachNewThread {
            started.signal()
            outcome.withValue { $0 = promise.future.forced().get() }
            done.signal()
        }
        started.wait()
        while !promise.future.hasRegisteredWaiterForTesting {}  // past the spin, blocked
        promise.success(7)
        done.wait()
        #expect(outcome.value == 7)
    }
}
