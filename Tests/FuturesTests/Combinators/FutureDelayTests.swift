import Dispatch
import Foundation
import Testing

@testable import Futures

@Suite("delay")
struct FutureDelayTests {
    @Test func delayCompletesWithTheSameValueAfterTheInterval() async {
        let start = DispatchTime.now()
        let delayed = Future<Int, Never>(value: 3).delay(.milliseconds(20))
        #expect(!delayed.isCompleted)
        #expect(await delayed.get() == 3)
        #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 20_000_000)
    }

    @Test func delayOfZeroIsStillAsynchronous() async {
        let delayed = Future<Int, Never>(value: 3).delay(.seconds(0))
        #expect(!delayed.isCompleted)
        #expect(await delayed.get() == 3)
    }

    @Test func delayDelaysFailuresToo() async {
        let delayed = Future<Int, ComboError>(error: .first).delay(.milliseconds(1))
        #expect(!delayed.isCompleted)
        await #expect(throws: ComboError.first) { try await delayed.get() }
    }

    @Test func delayStartsWhenTheFutureCompletes() async {
        let promise = Promise<Int, Never>()
        let delayed = promise.future.delay(.milliseconds(20))
        await Task.yield()
        #expect(!delayed.isCompleted)
        let completedAt = DispatchTime.now()
        promise.success(1)
        #expect(!delayed.isCompleted)
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
