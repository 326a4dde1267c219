import Testing

@testable import Futures

@Suite("traverseAsCompleted")
struct TraverseAsCompletedTests {
    typealias Outcome = (index: Int, result: Result<Int, ComboError>)

    /// Elements whose futures the test completes.
    final class Works: Sendable {
        let started = Recorder<Int>()
        let promises = LockedBox<[Int: Promise<Int, ComboError>]>([:])
        let asked = Counter()

        func start(_ element: Int) -> Future<Int, ComboError> {
            started.append(element)
            let promise = Promise<Int, ComboError>()
            promise.onCancellationRequested { [asked] in asked.increment() }
            promises.withValue { $0[element] = promise }
            return promise.future
        }

        func complete(_ element: Int, _ result: Result<Int, ComboError>) {
            let promise = promises.withValue { $0.removeValue(forKey: element) }
            promise?.complete(result)
        }
    }

    func collect(_ stream: FutureStream<(index: Int, result: Result<Int, ComboError>)>) -> Recorder<Outcome> {
        let seen = Recorder<Outcome>()
        stream.onSuccess(context: immediateExecutionContext) { seen.append($0) }
        return seen
    }

    @Test func deliversEachOutcomeAsItCompletesWithinTheBound() async throws {
        let works = Works()
        let stream = [10, 11, 12, 13].traverseAsCompleted(maxConcurrent: 2) { works.start($0) }
        let seen = collect(stream)
        #expect(works.started.values == [10, 11])
        works.complete(11, .failure(.first))
        #expect(works.started.values == [10, 11, 12])
        works.complete(12, .success(120))
        works.complete(10, .success(100))
        #expect(works.started.values == [10, 11, 12, 13])
        #expect(!stream.isFinished)
        works.complete(13, .success(130))
        #expect(stream.isFinished)
        #expect(seen.values.map(\.index) == [1, 2, 0, 3])
        #expect(seen.values.map(\.result) == [.failure(.first), .success(120), .success(100), .success(130)])

        // `for try await` sees the same outcomes (replayed), then the end.
        var indices: [Int] = []
        for try await (index, _) in stream { indices.append(index) }
        #expect(indices == [1, 2, 0, 3])
    }

    @Test func anEmptySequenceGivesAFinishedEmptyStream() async throws {
        let stream = [Int]().traverseAsCompleted(maxConcurrent: 3) { Future<Int, ComboError>(value: $0) }
        #expect(stream.isFinished)
        var count = 0
        for try await _ in stream { count += 1 }
        #expect(count == 0)
    }

    @Test func thousandsOfElementsCompletingAtOnceAreStackSafe() {
        let count = 100_000
        let stream = (0..<count).traverseAsCompleted(maxConcurrent: 3) { Future<Int, ComboError>(value: $0) }
        let seen = collect(stream)
        #expect(stream.isFinished)
        #expect(seen.values.count == count)
        #expect(seen.values.map(\.index) == Array(0..<count))
    }

    @Test func cancellationAsksTheRunningDropsTheQueuedAndFailsTheStream() async {
        let works = Works()
        let source = CancellationSource()
        let stream = (0..<6).traverseAsCompleted(maxConcurrent: 2, cancellationToken: source.token) {
            works.start($0)
        }
        let seen = collect(stream)
        works.complete(0, .success(0))
        #expect(works.started.values == [0, 1, 2])
        source.cancel()
        #expect(works.asked.value == 2)  // elements 1 and 2, running
        #expect(stream.isFinished)
        works.complete(1, .failure(.second))  // ignored: the stream has ended
        works.complete(2, .success(2))
        #expect(works.started.values == [0, 1, 2])  // 3, 4 and 5 never started
        #expect(seen.values.map(\.index) == [0])
        await #expect(throws: FuturesError.cancelled) {
            for try await _ in stream {}
        }
    }

    /// Iterates `stream` until its first outcome and leaves the loop (the iterator ends with this call).
    func firstIndex(of stream: FutureStream<Outcome>) async throws -> Int? {
        for try await (index, _) in stream { return index }
        return nil
    }

    @Test func leavingTheLoopEarlyCancelsTheRunningAndDropsTheQueued() async throws {
        let works = Works()
        let stream = (0..<6).traverseAsCompleted(maxConcurrent: 2) { works.start($0) }
        works.complete(0, .success(0))
        #expect(works.started.values == [0, 1, 2])
        #expect(try await firstIndex(of: stream) == 0)
        #expect(works.asked.value == 2)  // elements 1 and 2, running
        #expect(stream.isFinished)
        works.complete(1, .success(1))
        works.complete(2, .success(2))
        #expect(works.started.values == [0, 1, 2])  // 3, 4 and 5 never started
    }

    @Test func leavingTheLoopEarlyCancelsNothingWhileAnotherConsumerListens() async throws {
        let works = Works()
        let stream = (0..<3).traverseAsCompleted(maxConcurrent: 2) { works.start($0) }
        let seen = collect(stream)
        works.complete(0, .success(0))
        #expect(try await firstIndex(of: stream) == 0)
        #expect(works.asked.value == 0)
        works.complete(1, .success(1))
        works.complete(2, .success(2))
        #expect(seen.values.map(\.index) == [0, 1, 2])
        #expect(stream.isFinished)
    }

    @Test func cancellingTheConsumingTaskCancelsTheRemainingWork() async {
        let works = Works()
        let stream = (0..<6).traverseAsCompleted(maxConcurrent: 2) { works.start($0) }
        let (arrivals, arrived) = AsyncStream<Int>.makeStream()
        let consumer = Task {
            for try await (index, _) in stream { arrived.yield(index) }
        }
        works.complete(0, .success(0))
        var iterator = arrivals.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        consumer.cancel()
        _ = await consumer.result
        #expect(works.asked.value == 2)
        #expect(stream.isFinished)
        #expect(works.started.values == [0, 1, 2])
    }

    @Test func aLoopThatRunsToTheEndCancelsNothing() async throws {
        let works = Works()
        let stream = (0..<2).traverseAsCompleted(maxConcurrent: 2) { works.start($0) }
        works.complete(1, .success(1))
        works.complete(0, .success(0))
        var indices: [Int] = []
        for try await (index, _) in stream { indices.append(index) }
        #expect(indices == [1, 0])
        #expect(works.asked.value == 0)
    }

    @Test func aTokenCancelledBeforehandStartsNothing() {
        let works = Works()
        let source = CancellationSource()
        source.cancel()
        weak var weakStream: FutureStream<(index: Int, result: Result<Int, ComboError>)>?
        do {
            let stream = (0..<5).traverseAsCompleted(maxConcurrent: 2, cancellationToken: source.token) {
                works.start($0)
            }
            weakStream = stream
            #expect(stream.isFinished)
            #expect(works.started.values.isEmpty)
        }
        // The finished stream keeps no abandon handler, so nothing (limiter, items, stream) is kept in a cycle.
        #expect(weakStream == nil)
    }
}
