import Testing

@testable import Futures

@Suite("traverse")
struct TraverseTests {
    @Test func traverseTurnsEveryElementIntoAFutureAndCollectsTheValuesInOrder() async throws {
        let traversed = (1...5).traverse { Future<Int, ComboError>(value: $0 * $0) }
        #expect(try await traversed.get() == [1, 4, 9, 16, 25])
    }

    @Test func traverseCallsFRightAwayOncePerElement() {
        let calls = Counter()
        let promise = Promise<Int, ComboError>()
        _ = (0..<10).traverse(immediateExecutionContext) { _ -> Future<Int, ComboError> in
            calls.increment()
            return promise.future
        }
        #expect(calls.value == 10)
        promise.success(0)
    }

    @Test func traverseDeliversOnTheGivenContext() {
        let hops = Counter()
        let promises = (0..<3).map { _ in Promise<Int, ComboError>() }
        let traversed = promises.traverse(countingContext(hops)) { $0.future }
        for promise in promises { promise.success(2) }
        #expect(traversed.value == [2, 2, 2])
        #expect(hops.value == 1)
    }

    @Test func traverseWithoutAContextUsesAGlobalQueueNotTheDefaultContext() async {
        let defaultHops = Counter()
        let traversed = DefaultExecutionContext.withDefault(countingContext(defaultHops)) {
            [1, 2].traverse { Future<Int, Never>(value: $0) }
        }
        #expect(await traversed.get() == [1, 2])
        #expect(defaultHops.value == 0)
    }

    @Test func traverseFailsWithTheFirstFailureInElementOrder() {
        let traversed = [1, 2, 3].traverse(immediateExecutionContext) { value -> Future<Int, ComboError> in
            value == 1 ? Future(value: 1) : Future(error: value == 2 ? .second : .first)
        }
        #expect(traversed.error == .second)
    }

    @Test func traverseOfAHundredThousandElementsCompletesWithoutStackOverflow() {
        let promise = Promise<Int, Never>()
        let traversed = (0..<100_000).traverse(immediateExecutionContext) { index in
            promise.future.map(immediateExecutionContext) { $0 + index }
        }
        promise.success(1)
        #expect(traversed.value?.count == 100_000 && traversed.value?.last == 100_000)
    }
}
