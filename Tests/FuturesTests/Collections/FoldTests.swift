import Testing

@testable import Futures

@Suite("fold")
struct FoldTests {
    @Test func foldCombinesTheValuesInListOrder() {
        let promises = (0..<4).map { _ in Promise<String, ComboError>() }
        let folded = promises.map(\.future).fold(immediateExecutionContext, zero: ">") { $0 + $1 }
        for (index, promise) in promises.enumerated().reversed() { promise.success("\(index)") }
        #expect(folded.value == ">0123")
    }

    @Test func foldRunsOnTheGivenContext() {
        let hops = Counter()
        let folded = [Future<Int, ComboError>(value: 1), Future(value: 2)].fold(countingContext(hops), zero: 0) {
            $0 + $1
        }
        #expect(folded.value == 3)
        #expect(hops.value == 1)
    }

    @Test func foldWithoutAContextRunsOnAGlobalQueueNotTheDefaultContext() async throws {
        let defaultHops = Counter()
        let folded = DefaultExecutionContext.withDefault(countingContext(defaultHops)) {
            [Future<Int, ComboError>(value: 1), Future(value: 2)].fold(0) { $0 + $1 }
        }
        #expect(try await folded.get() == 3)
        #expect(defaultHops.value == 0)
    }

    @Test func foldFailsWithTheFirstFailureInListOrderWithoutRunningF() {
        let runs = Counter()
        let folded = [Future<Int, ComboError>(value: 1), Future(error: .second), Future(error: .first)]
            .fold(immediateExecutionContext, zero: 0) { sum, value in
                runs.increment()
                return sum + value
            }
        #expect(folded.error == .second)
        #expect(runs.value == 0)
    }

    @Test func foldOfAHundredThousandFuturesCompletes() {
        let promises = (0..<100_000).map { _ in Promise<Int, Never>() }
        let folded = promises.map(\.future).fold(immediateExecutionContext, zero: 0) { $0 + $1 }
        for promise in promises.reversed() { promise.success(1) }
        #expect(folded.value == 100_000)
    }

    @Test func foldAndTraverseHopToTheContextOnceWhateverTheLength() {
        for count in [1_000, 10_000] {
            let foldHops = Counter()
            let traverseHops = Counter()
            let futures = (0..<count).map { Future<Int, Never>(value: $0) }
            let folded = futures.fold(countingContext(foldHops), zero: 0) { $0 + $1 }
            let traversed = futures.traverse(countingContext(traverseHops)) { $0 }
            #expect(folded.value == count * (count - 1) / 2)
            #expect(traversed.value?.count == count)
            #expect(foldHops.value == 1 && traverseHops.value == 1)
        }
    }

    @Test func foldOfNoFuturesIsTheZero() {
        let folded = [Future<Int, ComboError>]().fold(immediateExecutionContext, zero: 5) { $0 + $1 }
        #expect(folded.value == 5)
    }
}
