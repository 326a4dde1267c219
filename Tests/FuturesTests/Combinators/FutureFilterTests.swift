import Testing

@testable import Futures

@Suite("filter")
struct FutureFilterTests {
    @Test func filterKeepsAValueThatPasses() {
        let filtered = Future<String, Never>(value: "Swift").filter { $0.hasPrefix("Sw") }
        #expect(filtered.value == "Swift")
    }

    @Test func filterFailsWithNoSuchElementWhenTheValueDoesNotPass() {
        let filtered = Future<Int, Never>(value: 3).filter { $0 > 5 }
        #expect(filtered.error?.caseName == "noSuchElement")
    }

    @Test func filterWrapsAFailureAsExternalWithoutRunningThePredicate() {
        let runs = Counter()
        let filtered = Future<Int, ComboError>(error: .second).filter { _ in
            runs.increment()
            return true
        }
        #expect(filtered.error?.caseName == "external(second)")
        #expect(runs.value == 0)
    }

    @Test func filterWaitsForAPendingFuture() {
        let promise = Promise<Int, ComboError>()
        let filtered = promise.future.filter { $0.isMultiple(of: 2) }
        #expect(!filtered.isCompleted)
        promise.success(4)
        #expect(filtered.value == 4)
    }
}
