import Futures
import Synchronization

/// FutureStream: replay, live values, combinators, finishing, and several `for await` consumers.
func tourStreams() async {
    print("\n== Streams ==")
    let promise = StreamPromise<Int>(capacity: 3)
    for value in 1...5 { promise.success(value) }
    print("published 1...5 into a stream of capacity 3; it keeps", promise.stream.count, "results")

    let replayed = LockedList()
    promise.stream.onSuccess(context: ImmediateContext()) { replayed.append($0) }
    print("a new subscriber first gets the replay:", replayed.values)
    promise.success(6)
    print("then live values:", replayed.values)

    let evens = promise.stream
        .map(context: ImmediateContext()) { $0 * 10 }
        .withFilter(context: ImmediateContext()) { $0 % 20 == 0 }
    let filtered = LockedList()
    evens.onComplete(context: ImmediateContext()) { result in
        filtered.append((try? result.get()) ?? -1)
    }
    print("map then withFilter (-1 marks a rejected value):", filtered.values)

    // Two consumers iterate at once; each gets the replay, the live values, then the end.
    let stream = promise.stream
    var first = stream.makeAsyncIterator()
    var second = stream.makeAsyncIterator()
    promise.success(7)
    promise.finish()
    var firstSeen: [Int] = []
    var secondSeen: [Int] = []
    do {
        while let value = try await first.next() { firstSeen.append(value) }
        while let value = try await second.next() { secondSeen.append(value) }
    } catch {
        print("unexpected:", error)
    }
    print("consumer one:", firstSeen, "consumer two:", secondSeen)
    print("finished:", stream.isFinished, "- derived streams end too:", evens.isFinished)

    let token = CancelToken()
    let live = StreamPromise<String>()
    let heard = LockedList()
    live.stream.onSuccess(context: ImmediateContext(), cancelToken: token) { heard.append($0.count) }
    live.success("one")
    live.stream.cancel(token)
    live.success("three")
    print("a subscriber cancelled by token heard", heard.values.count, "value")
}

/// Values collected from callbacks (which may run on any thread).
private final class LockedList: Sendable {
    private let items = Mutex<[Int]>([])
    func append(_ value: Int) { items.withLock { $0.append(value) } }
    var values: [Int] { items.withLock { $0 } }
}
