import Dispatch
import Testing

@testable import Futures

/// The stream's subscriber table: removals leave tombstones that are compacted away later, and none of this
/// changes who gets what, or in which order.
@Suite("Stream subscriber table: removal keeps subscription order")
struct StreamSubscriberTableTests {
    /// Subscribers removed from the front, the back and the middle (compacted or not) leave the others'
    /// delivery in subscription order; later subscribers come after them.
    @Test(arguments: [10, 200], [true, false])
    func removalsKeepDeliveryInSubscriptionOrder(_ count: Int, _ immediate: Bool) {
        let promise = StreamPromise<Int>(capacity: 0)
        let queue = GQueue("table.order")
        let context = immediate ? immediateExecutionContext : queue.context
        let log = Recorder<Int>()
        var tokens: [CancelToken] = []
        func subscribe(_ id: Int) {
            let token = CancelToken()
            tokens.append(token)
            promise.stream.onSuccess(context: context, cancelToken: token) { _ in log.append(id) }
        }
        for id in 0..<count { subscribe(id) }
        var expected = Array(0..<count)
        let removed = Set(
            Array(0..<3) + Array((count - 3)..<count) + (0..<count).filter { $0.isMultiple(of: 3) })
        for id in removed.sorted(by: >) { #expect(promise.stream.cancel(tokens[id])) }
        expected.removeAll { removed.contains($0) }
        promise.success(1)
        queue.drain()
        #expect(log.values == expected)
        #expect(promise.stream.storedSlotCountForTesting <= 2 * expected.count + 1)

        for id in count..<(count + 5) { subscribe(id) }
        expected += Array(count..<(count + 5))
        // Most of the rest leave: the table is compacted, and the order still holds.
        let leaving = expected.dropLast(4)
        for id in leaving { #expect(promise.stream.cancel(tokens[id])) }
        expected = Array(expected.suffix(4))
        let mark = log.values.count
        promise.success(2)
        queue.drain()
        #expect(Array(log.values[mark...]) == expected)
        #expect(promise.stream.subscriberCountForTesting == 4)
        #expect(promise.stream.storedSlotCountForTesting <= 2 * 4 + 1)
    }

    /// A handler that removes later subscribers while a result is being delivered: they do not get it, everyone
    /// else does, in order.
    @Test(arguments: [10, 200])
    func aHandlerRemovingLaterSubscribersDuringDelivery(_ count: Int) {
        let promise = StreamPromise<Int>(capacity: 0)
        let log = Recorder<Int>()
        let tokens = (0..<count).map { _ in CancelToken() }
        let stream = promise.stream
        for id in 0..<count {
            stream.onSuccess(context: immediateExecutionContext, cancelToken: tokens[id]) { _ in
                log.append(id)
                if id == 1 {
                    for later in stride(from: 2, to: count, by: 2) { _ = stream.cancel(tokens[later]) }
                }
            }
        }
        promise.success(1)
        let expected = [0, 1] + stride(from: 3, to: count, by: 2)
        #expect(log.values == expected)
        let mark = log.values.count
        promise.success(2)
        #expect(Array(log.values[mark...]) == expected)
        #expect(promise.stream.subscriberCountForTesting == expected.count)
    }

    /// Subscribing and unsubscribing many times next to a few permanent subscribers keeps the table small.
    @Test func churnNextToPermanentSubscribersKeepsTheTableSmall() {
        let promise = StreamPromise<Int>(capacity: 0)
        let seen = Counter()
        for _ in 0..<3 { promise.stream.onSuccess(context: immediateExecutionContext) { _ in seen.increment() } }
        var largest = 0
        for _ in 0..<10_000 {
            let token = CancelToken()
            promise.stream.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in
                Issue.record("a cancelled subscriber ran")
            }
            #expect(promise.stream.cancel(token))
            largest = max(largest, promise.stream.storedSlotCountForTesting)
        }
        #expect(largest <= 7)
        promise.success(1)
        #expect(seen.value == 3)
    }
}
