import Testing

@testable import Futures

@Suite("settled")
struct SettledTests {
    @Test func keepsEveryOutcomeInListOrderWhateverTheCompletionOrder() {
        let promises = (0..<4).map { _ in Promise<Int, ComboError>() }
        let settled = promises.map(\.future).settled()
        promises[3].success(3)
        promises[1].failure(.first)
        promises[0].success(0)
        #expect(settled.result == nil)  // still waits for the third input
        promises[2].failure(.second)
        let outcomes = settled.value
        #expect(outcomes?.count == 4)
        #expect(outcomes?[0] == .success(0))
        #expect(outcomes?[1] == .failure(.first))
        #expect(outcomes?[2] == .failure(.second))
        #expect(outcomes?[3] == .success(3))
    }

    @Test func completedInputsAndAnEmptyListGiveAResultAtOnce() {
        let mixed = [Future<Int, ComboError>(value: 1), Future(error: .first)].settled()
        #expect(mixed.value == [.success(1), .failure(.first)])
        let empty = [Future<Int, ComboError>]().settled()
        #expect(empty.value?.isEmpty == true)
    }

    @Test func aCancellationRequestReachesEveryPendingInputAsOneConsumer() {
        let asked = Counter()
        let promises = (0..<3).map { _ in Promise<Int, any Error>() }
        for promise in promises { promise.onCancellationRequested { asked.increment() } }
        promises[0].success(0)
        let settled = promises.map(\.future).settled()
        // Another consumer of the last input still waits for it.
        let shared = promises[2].future.map(immediateExecutionContext) { $0 }
        settled.requestCancellation()
        #expect(asked.value == 1)  // only the second input: the first completed, the third is shared
        promises[1].failure(FuturesError.cancelled)
        promises[2].success(2)
        #expect(settled.value?.count == 3)
        #expect(shared.value == 2)
    }

    @Test func oneHundredThousandInputsAreStackSafeAndLinear() {
        func steps(_ count: Int) -> Int {
            let promises = (0..<count).map { _ in Promise<Int, ComboError>() }
            let collector = promises.map(\.future).settledGatherer()
            for promise in promises.reversed() { promise.failure(.first) }
            #expect(collector.future.value?.count == count)
            return collector.steps
        }
        let small = steps(10_000)
        let large = steps(100_000)
        #expect(large <= 10 * small + 10)
    }
}
