import Dispatch
import Foundation
import Testing

@testable import Futures

@Suite("delay")
struct FutureDelayTests {
    /// A serial queue that runs nothing until resumed: what `delay` schedules on it cannot complete
    /// early, however busy the machine is, so "not yet completed" can be asserted without racing a timer.
    private func heldQueue() -> DispatchQueue {
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        return queue
    }

    @Test func delayCompletesWithTheSameValueNoEarlierThanTheInterval() async {
        let start = DispatchTime.now()
        let delayed = Future<Int, Never>(value: 3).delay(.milliseconds(20))
        #expect(await delayed.get() == 3)
        #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 20_000_000)
    }

    @Test func delayOfZeroIsStillAsynchronous() async {
        let queue = heldQueue()
        let delayed = Future<Int, Never>(value: 3).delay(queue, interval: .seconds(0))
        #expect(!delayed.isCompleted, "a zero delay still goes through the queue")
        queue.resume()
        #expect(await delayed.get() == 3)
    }

    @Test func delayDelaysFailuresToo() async {
        let queue = heldQueue()
        let delayed = Future<Int, ComboError>(error: .first).delay(queue, interval: .milliseconds(1))
        #expect(!delayed.isCompleted)
        queue.resume()
        await #expect(throws: ComboError.first) { try await delayed.get() }
    }

    @Test func delayStartsWhenTheFutureCompletes() async {
        let queue = heldQueue()
        let promise = Promise<Int, Never>()
        let delayed = promise.future.delay(queue, interval: .milliseconds(20))
        queue.resume()  // the timer can only be armed once the future completes
        await Task.yield()
        #expect(!delayed.isCompleted)
        let completedAt = DispatchTime.now()
        promise.success(1)
        #expect(await delayed.get() == 1)
        #expect(DispatchTime.now().uptimeNanoseconds - completedAt.uptimeNanoseconds >= 20_000_000)
    }

    @Test func delayOnAQueueCompletesOnThatQueue() async {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "delay-target")
        queue.setSpecific(key: key, value: "delay-target")
        let seen = Promise<String?, Never>()
        Future<Int, Never>(value: 1).delay(queue, interval: .milliseconds(1))
            .onComplete(immediateExecutionContext) { _ in seen.success(DispatchQueue.getSpecific(key: key)) }
        #expect(await seen.future.get() == "delay-target")
    }

    @Test func delayOffTheMainThreadCompletesOffTheMainThread() async {
        let onMain = Promise<Bool, Never>()
        DispatchQueue.global().async {
            Future<Int, Never>(value: 1).delay(.milliseconds(1))
                .onComplete(immediateExecutionContext) { _ in onMain.success(Thread.isMainThread) }
        }
        #expect(await onMain.future.get() == false)
    }

    @Test func delayCalledOnTheMainThreadUsesTheMainQueueElseAGlobalQueue() {
        #expect(delayQueue(isMainThread: true).label == DispatchQueue.main.label)
        #expect(delayQueue(isMainThread: false).label == DispatchQueue.global().label)
    }

    // MARK: BrightFutures' delayed initializers

    /// A zero delay is still asynchronous. The queue that would complete the future is suspended while the
    /// initializer runs, so the check cannot race with it: a global queue can complete a zero delay before
    /// the next line of the caller runs (this test once failed so, on a global queue).
    @Test func delayedInitializersArePendingWhenTheyReturn() async {
        let value = Future<Int, ComboError>(value: 1, delay: .seconds(60))
        let error = Future<Int, ComboError>(error: .first, delay: .seconds(60))
        #expect(!value.isCompleted && !error.isCompleted)
        let queue = heldQueue()
        let result = Future<Int, ComboError>(result: .success(2), delay: .seconds(0), on: queue)
        #expect(!result.isCompleted, "a zero delay is still asynchronous")
        queue.resume()
        #expect(await result.result(afterWaiting: ()) == .success(2))
    }

    @Test func delayedInitializersCompleteNoEarlierThanTheDelayOnAGlobalQueue() async {
        let start = DispatchTime.now()
        let onMainQueue = Promise<Bool, Never>()
        let value = Future<Int, ComboError>(value: 3, delay: .milliseconds(30))
        value.onComplete(immediateExecutionContext) { _ in onMainQueue.success(isOnMainQueue()) }
        #expect(await value.result(afterWaiting: ()) == .success(3))
        #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 30_000_000)
        #expect(await onMainQueue.future.get() == false, "completes on a global queue")

        let error = Future<Int, ComboError>(error: .second, delay: .milliseconds(1))
        await #expect(throws: ComboError.second) { try await error.get() }
        let result = Future<String, ComboError>(result: .failure(.first), delay: .milliseconds(1))
        await #expect(throws: ComboError.first) { try await result.get() }
    }

    /// BrightFutures' own tests build `firstCompleted`, `find` and `sequence` inputs this way.
    @Test func brightFuturesStyleCollectionTestsWithDelayedFutures() async throws {
        let first = [
            Future<Int, Never>(value: 3, delay: .seconds(60)),
            Future<Int, Never>(value: 1, delay: .milliseconds(5)),
        ].firstCompleted()
        #expect(await first.get() == 1)

        let found = [
            Future<Int, Never>(value: 1, delay: .milliseconds(20)),
            Future<Int, Never>(value: 4, delay: .milliseconds(5)),
            Future<Int, Never>(value: 6, delay: .milliseconds(1)),
        ].find { $0 % 2 == 0 }
        #expect(try await found.get() == 4, "the first match in list order, not in completion order")

        let all = (1...5).map { Future<Int, ComboError>(value: $0, delay: .milliseconds(6 - $0)) }.sequence()
        #expect(try await all.get() == [1, 2, 3, 4, 5])
    }
}

extension Future {
    /// The result once the future completed (a test helper that never throws).
    fileprivate func result(afterWaiting: Void) async -> Result<T, E> {
        await withUnsafeContinuation { continuation in
            onComplete(immediateExecutionContext) { continuation.resume(returning: $0) }
        }
    }
}
