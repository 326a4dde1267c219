import Testing

@testable import Futures

@Suite("firstCompleted")
struct FirstCompletedTests {
    @Test func firstCompletedTakesTheResultOfTheFutureThatCompletesFirst() {
        let promises = (0..<3).map { _ in Promise<Int, ComboError>() }
        let first = promises.map(\.future).firstCompleted()
        #expect(!first.isCompleted)
        promises[2].success(2)
        promises[0].success(0)
        promises[1].success(1)
        #expect(first.value == 2)
    }

    @Test func firstCompletedTakesAFailureToo() {
        let promises = (0..<2).map { _ in Promise<Int, ComboError>() }
        let first = promises.map(\.future).firstCompleted()
        promises[1].failure(.second)
        promises[0].success(0)
        #expect(first.error == .second)
    }

    @Test func firstCompletedPrefersTheFirstCompletedFutureInListOrder() {
        let pending = Promise<Int, ComboError>()
        let first = [pending.future, Future(value: 1), Future(error: .first)].firstCompleted()
        #expect(first.value == 1)
        pending.success(0)
    }

    @Test func firstCompletedOfNoFuturesNeverCompletes() {
        #expect(![Future<Int, ComboError>]().firstCompleted().isCompleted)
    }
}
