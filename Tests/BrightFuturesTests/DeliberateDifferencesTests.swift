import BrightFutures
import Dispatch
import Testing

/// BrightFutures ran the callbacks of one future one at a time, whatever their contexts. Here each
/// callback runs on its own context as soon as the future completes, so callbacks on different contexts
/// may run at the same time (none waits for another context); those on one serial context still run one
/// at a time, in registration order. See the "Migrating from BrightFutures" article.
@Suite("BrightFutures: deliberate differences")
struct DeliberateDifferencesTests {
    @Test func callbacksOnDifferentContextsDoNotWaitForEachOther() async {
        let promise = Promise<Void, Never>()
        let first = DispatchQueue(label: "first")
        let second = DispatchQueue(label: "second")
        let secondRan = DispatchSemaphore(value: 0)
        let sawSecondWhileRunning = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            // The first callback is still running while it waits for the second: with serial callbacks
            // the second could not start until the first returned, and the wait would time out.
            promise.future.onComplete(first.context) { _ in
                let ran = secondRan.wait(timeout: .now() + 30) == .success
                done.resume(returning: ran)
            }
            promise.future.onComplete(second.context) { _ in secondRan.signal() }
            promise.success(())
        }
        #expect(sawSecondWhileRunning)
    }

    @Test func callbacksOnOneSerialContextRunOneAtATimeInOrder() async {
        let promise = Promise<Int, Never>()
        let queue = DispatchQueue(label: "serial")
        let order = Recorder<Int>()
        let running = Counter()
        let overlaps = Counter()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<10 {
                promise.future.onComplete(queue.context) { _ in
                    if running.increment() > 1 { overlaps.increment() }
                    order.append(index)
                    running.increment(by: -1)
                    if index == 9 { done.resume() }
                }
            }
            promise.success(1)
        }
        #expect(order.values == Array(0..<10) && overlaps.value == 0)
    }
}
