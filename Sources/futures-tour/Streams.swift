import Futures

/// FutureStream: replay, live values, finishing, and several `for await` consumers.
func tourStreams() async {
    print("\n== Streams ==")
    let promise = StreamPromise<Int>(capacity: 3)
    for value in 1...5 { promise.success(value) }
    print("published 1...5 into a stream of capacity 3; it keeps", promise.stream.count, "results")

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
    print("finished:", stream.isFinished)

}
