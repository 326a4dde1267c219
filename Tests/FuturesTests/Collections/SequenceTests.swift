import Dispatch
import Testing

@testable import Futures

@Suite("sequence")
struct SequenceTests {
    @Test func sequenceCollectsTheValuesInListOrder() {
        let promises = (0..<5).map { _ in Promise<Int, ComboError>() }
        let all = promises.map(\.future).sequence()
        for (index, promise) in promises.enumerated().reversed() {
            #expect(!all.isCompleted)
            promise.success(index * 10)
        }
        #expect(all.value == [0, 10, 20, 30, 40])
    }

    @Test func sequenceOfNoFuturesIsAnEmptyArrayAtOnce() {
        #expect([Future<Int, ComboError>]().sequence().value == [])
    }

    @Test func sequenceFailsWithTheFirstFailureInListOrderNotTimeOrder() {
        let head = Promise<Int, ComboError>()
        let middle = Promise<Int, ComboError>()
        let tail = Promise<Int, ComboError>()
        let all = [head.future, middle.future, tail.future].sequence()
        tail.failure(.second)
        middle.failure(.first)
        #expect(!all.isCompleted)  // the head may still fail first in list order
        head.success(1)
        #expect(all.error == .first)
    }

    @Test func sequenceFailsAsSoonAsEveryEarlierFutureSucceeded() {
        let pending = Promise<Int, ComboError>()
        let all = [Future(value: 1), Future(error: .second), pending.future].sequence()
        #expect(all.error == .second)
        pending.success(3)
    }

    @Test func sequenceOfAHundredThousandFuturesCompletesWithoutStackOverflow() {
        let count = 100_000
        let promises = (0..<count).map { _ in Promise<Int, ComboError>() }
        let inOrder = promises.map(\.future).sequence()
        let chained = promises.map { $0.future.map(immediateExecutionContext) { $0 + 1 } }.sequence()
        for (index, promise) in promises.enumerated().reversed() { promise.success(index) }
        #expect(inOrder.value?.count == count && inOrder.value?.last == count - 1)
        #expect(chained.value?.first == 1)
        let completed = (0..<count).map { Future<Int, ComboError>(value: $0) }.sequence()
        #expect(completed.value?[count / 2] == count / 2)
    }

    @Test func sequenceWorkGrowsLinearlyWithTheNumberOfFutures() {
        /// Work units of collecting `n` futures completed in the worst order for a prefix scan (reversed).
        func steps(_ n: Int) -> Int {
            let promises = (0..<n).map { _ in Promise<Int, ComboError>() }
            let collector = Gatherer<AllValues<Int>, ComboError>.start(
                promises.map(\.future), mode: .all(failsOnArrival: false), step: "sequence", file: #fileID, line: #line)
            for (index, promise) in promises.enumerated().reversed() { promise.success(index) }
            #expect(collector.future.value?.count == n)
            return collector.steps
        }
        let small = steps(1_000)
        let large = steps(10_000)
        #expect(small > 0)
        #expect(large <= 10 * small)  // O(n): ten times the futures, at most ten times the work
    }

    @Test func sequenceRegistersOneCallbackPerPendingFuture() {
        let callbacks = Counter()
        let promises = (0..<100).map { _ in Promise<Int, ComboError>() }
        let observed = promises.map { $0.future.map(countingContext(callbacks)) { $0 } }
        let all = observed.sequence()
        for promise in promises { promise.success(1) }
        #expect(all.value?.count == 100)
        #expect(callbacks.value == 100)
    }

    @Test func sequenceCollectsFuturesCompletedConcurrentlyFromManyThreads() {
        let count = 2_000
        let promises = (0..<count).map { _ in Promise<Int, ComboError>() }
        let all = promises.map(\.future).sequence()
        DispatchQueue.concurrentPerform(iterations: count) { index in promises[index].success(index) }
        #expect(all.forced().map { $0 == Array(0..<count) } == .success(true))
    }

    @Test func sequenceOfResultsCollectsTheValues() throws {
        let results: [Result<Int, ComboError>] = [.success(1), .success(2)]
        #expect(try results.sequence().get() == [1, 2])
        #expect(try [Result<Int, ComboError>]().sequence().get() == [])
    }

    @Test func sequenceOfResultsFailsWithTheFirstFailureAndStopsReading() {
        let reads = Counter()
        let results: [Result<Int, ComboError>] = [.success(1), .failure(.first), .failure(.second), .success(4)]
        let lazy = results.lazy.map { result -> Result<Int, ComboError> in
            reads.increment()
            return result
        }
        #expect(lazy.sequence().failure == .first)
        #expect(reads.value == 2)
    }
}

@Suite("sequence: memory")
struct SequenceMemoryTests {
    @Test func aSequencedFutureLivesWhileAnInputCanCompleteItAndIsReleasedAfter() {
        weak var weakAll: Future<[Int], ComboError>?
        let promises = (0..<3).map { _ in Promise<Int, ComboError>() }
        do {
            let all = promises.map(\.future).sequence()
            weakAll = all
        }
        #expect(weakAll != nil)
        for promise in promises { promise.success(1) }
        #expect(weakAll == nil)
    }
}
