import Testing

@testable import Futures

@Suite("FutureStream as an AsyncSequence: many consumers, replay, end, release")
struct FutureStreamAsyncSequenceTests {
    @Test func severalConsumersEachGetTheReplayThenLiveValuesThenTheEnd() async throws {
        let promise = StreamPromise<Int>(capacity: 2)
        promise.success(1)
        promise.success(2)
        promise.success(3)
        // Iterators subscribe when made, so both see the same replay [2, 3].
        var first = promise.stream.makeAsyncIterator()
        var second = promise.stream.makeAsyncIterator()
        promise.success(4)
        promise.finish()
        var firstSeen: [Int] = []
        while let value = try await first.next() { firstSeen.append(value) }
        var secondSeen: [Int] = []
        while let value = try await second.next() { secondSeen.append(value) }
        #expect(firstSeen == [2, 3, 4])
        #expect(secondSeen == [2, 3, 4])
        #expect(try await first.next() == nil)
    }

    @Test func concurrentConsumersIterateWhileAProducerPublishes() async throws {
        let promise = StreamPromise<Int>(capacity: 1)
        let started = Counter()
        let allStarted = Promise<Void, Never>()
        let stream = promise.stream
        try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var iterator = stream.makeAsyncIterator()
                    if started.increment() == 4 { allStarted.success(()) }
                    var seen: [Int] = []
                    while let value = try await iterator.next() { seen.append(value) }
                    return seen
                }
            }
            await allStarted.future.get()
            for value in 0..<500 { promise.success(value) }
            promise.finish()
            for try await seen in group {
                #expect(seen == Array(0..<500))
            }
        }
    }

    @Test func aForAwaitLoopEndsAtFinish() async throws {
        let promise = StreamPromise<String>()
        promise.success("a")
        promise.success("b")
        promise.finish()
        var seen: [String] = []
        for try await value in promise.stream { seen.append(value) }
        #expect(seen == ["a", "b"])
    }

    @Test func aStreamMadeByAnInitializerEndsAfterItsValue() async throws {
        var seen: [Int] = []
        for try await value in FutureStream(value: 5) { seen.append(value) }
        #expect(seen == [5])
    }

    @Test func aFailedResultIsThrownAndATerminalFailureToo() async {
        let promise = StreamPromise<Int>()
        promise.success(1)
        promise.failure(ParseError.notANumber("x"))
        var seen: [Int] = []
        await #expect(throws: ParseError.notANumber("x")) {
            for try await value in promise.stream { seen.append(value) }
        }
        #expect(seen == [1])
        let terminal = StreamPromise<Int>()
        terminal.finish(throwing: FuturesError.timedOut)
        await #expect(throws: FuturesError.timedOut) {
            for try await _ in terminal.stream {}
        }
    }

    @Test func resultsYieldsFailuresAsValuesAndTheTerminalFailureLast() async {
        let promise = StreamPromise<Int>()
        promise.success(1)
        promise.failure(ParseError.notANumber("x"))
        promise.success(2)
        promise.finish(throwing: FuturesError.timedOut)
        var seen: [String] = []
        for await result in promise.stream.results {
            switch result {
            case .success(let value): seen.append("\(value)")
            case .failure(let error): seen.append("\(error)")
            }
        }
        #expect(seen == ["1", "notANumber(\"x\")", "2", "timedOut"])
    }

    @Test func breakingOutOfTheLoopUnsubscribesAndReleasesTheConsumer() async throws {
        let promise = StreamPromise<Int>()
        promise.success(1)
        promise.success(2)
        weak var weakConsumer: StreamConsumer<Int>?
        do {
            var iterator = promise.stream.makeAsyncIterator()
            weakConsumer = iterator.consumer
            #expect(try await iterator.next() == 1)
        }
        #expect(weakConsumer == nil)
        for try await value in promise.stream {
            #expect(value == 1)
            break
        }
        // Nobody is subscribed any more: the state holds no slot.
        #expect(subscriberCount(promise.stream) == 0)
    }

    @Test func cancellingTheConsumingTaskEndsItsLoopAndUnsubscribes() async throws {
        let promise = StreamPromise<Int>()
        let stream = promise.stream
        let waiting = Promise<Void, Never>()
        let task = Task {
            var seen: [Int] = []
            var iterator = stream.makeAsyncIterator()
            waiting.success(())
            while let value = try await iterator.next() { seen.append(value) }
            return seen
        }
        await waiting.future.get()
        promise.success(1)
        task.cancel()
        let seen = try await task.value
        #expect(seen.count <= 1)
        #expect(subscriberCount(stream) == 0)
        #expect(!stream.isFinished)
    }
}

/// How many subscribers a stream currently has.
func subscriberCount<T>(_ stream: FutureStream<T>) -> Int {
    stream.subscriberCountForTesting
}
