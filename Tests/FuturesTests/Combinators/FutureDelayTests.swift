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
}
