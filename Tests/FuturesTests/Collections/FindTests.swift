import Testing

@testable import Futures

@Suite("find")
struct FindTests {
    @Test func findGivesTheFirstMatchInListOrderNotTimeOrder() {
        let promises = (0..<3).map { _ in Promise<Int, ComboError>() }
        let found = promises.map(\.future).find(immediateExecutionContext) { $0 > 10 }
        promises[2].success(30)
        promises[1].success(20)
        #expect(!found.isCompleted)
        promises[0].success(0)
        #expect(found.value == 20)
    }

    @Test func findFailsWithNoSuchElementWhenNothingMatches() {
        let found = [Future<Int, ComboError>(value: 1)].find(immediateExecutionContext) { $0 > 10 }
        #expect(found.error?.caseName == "noSuchElement")
    }

    @Test func findWrapsTheFirstFailureAsExternal() {
        let runs = Counter()
        let found = [Future<Int, ComboError>(value: 11), Future(error: .second)].find(immediateExecutionContext) {
            runs.increment()
            return $0 > 10
        }
        #expect(found.error?.caseName == "external(second)")
        #expect(runs.value == 0)
    }

    @Test func findRunsThePredicateOnTheGivenContext() {
        let hops = Counter()
        let found = [Future<Int, ComboError>(value: 11)].find(countingContext(hops)) { $0 > 10 }
        #expect(found.value == 11 && hops.value == 1)
    }

    @Test func findWithoutAContextRunsOnAGlobalQueueNotTheDefaultContext() async throws {
        let defaultHops = Counter()
        let found = DefaultExecutionContext.withDefault(countingContext(defaultHops)) {
            [Future<Int, ComboError>(value: 1), Future(value: 12)].find { $0 > 10 }
        }
        #expect(try await found.get() == 12)
        #expect(defaultHops.value == 0)
    }
}
