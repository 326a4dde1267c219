import Dispatch
import Testing

@testable import Futures

/// Pins down the direct hand-over: an idle subscriber on the immediate context takes a published
/// result without going through its mailbox, and what is published meanwhile queues behind it.
@Suite("FutureStream hand-over: reentrant publishing, mixed contexts, cancellation mid-delivery")
struct StreamHandOverTests {
    @Test func aResultPublishedFromAnImmediateHandlerQueuesBehindTheCurrentOne() {
        let promise = StreamPromise<Int>(capacity: 4)
        let seen = Recorder<Int>()
        promise.stream.onSuccess(context: immediate) { value in
            seen.append(value)
            if value == 1 {
                promise.success(2)
                promise.success(3)
            }
        }
        promise.success(1)
        promise.success(4)
        #expect(seen.values == [1, 2, 3, 4])
        promise.finish()  // the handler captures the promise: a stream left open would keep that cycle
    }

    @Test func everyImmediateSubscriberKeepsTheOrderWhenOneOfThemPublishesReentrantly() {
        let promise = StreamPromise<Int>(capacity: 4)
        let recorders = (0..<3).map { _ in Recorder<Int>() }
        for (index, seen) in recorders.enumerated() {
            promise.stream.onSuccess(context: immediate) { value in
                seen.append(value)
                if index == 0 && value == 1 { promise.success(2) }
            }
        }
        promise.success(1)
        promise.success(3)
        for seen in recorders { #expect(seen.values == [1, 2, 3]) }
        promise.finish()  // the handlers capture the promise: a stream left open would keep that cycle
    }

    @Test func immediateAndQueueSubscribersOfOneStreamEachGetEveryValueInOrder() async {
        let promise = StreamPromise<Int>(capacity: 8)
        let direct = [Recorder<Int>(), Recorder<Int>()]
        let queued = Recorder<Int>()
        let done = Promise<Void, Never>()
        for seen in direct { promise.stream.onSuccess(context: immediate) { seen.append($0) } }
        promise.stream.onSuccess(context: ExecutionContext(queue: .global())) { value in
            queued.append(value)
            if value == 499 { done.success(()) }
        }
        for value in 0..<500 { promise.success(value) }
        await done.future.get()
        for seen in direct { #expect(seen.values == Array(0..<500)) }
        #expect(queued.values == Array(0..<500))
    }

    @Test func cancellingInsideAHandOverStopsThatSubscriberOnly() {
        let promise = StreamPromise<Int>(capacity: 4)
        let token = CancelToken()
        let cancelled = Recorder<Int>()
        let other = Recorder<Int>()
        promise.stream.onSuccess(context: immediate, cancelToken: token) { value in
            cancelled.append(value)
            if value == 2 { promise.stream.cancel(token) }
        }
        promise.stream.onSuccess(context: immediate) { other.append($0) }
        for value in 1...4 { promise.success(value) }
        #expect(cancelled.values == [1, 2])
        #expect(other.values == [1, 2, 3, 4])
        #expect(promise.stream.subscriberCountForTesting == 1)
    }

    @Test func theEndFollowsTheLastHandedOverResult() {
        let promise = StreamPromise<Int>(capacity: 4)
        let events = Recorder<String>()
        promise.stream.onSuccess(context: immediate) { value in
            events.append("\(value)")
            if value == 2 { promise.finish() }
        }
        promise.stream.onFinish(context: immediate) { _ in events.append("end") }
        promise.success(1)
        promise.success(2)
        promise.success(3)
        #expect(events.values == ["1", "2", "end"])
        #expect(promise.stream.subscriberCountForTesting == 0)
    }
}
