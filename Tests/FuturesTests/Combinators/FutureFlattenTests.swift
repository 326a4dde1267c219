import Testing

@testable import Futures

@Suite("flatten")
struct FutureFlattenTests {
    @Test func flattenUnwrapsAFutureOfAFuture() {
        let nested = Future<Future<Int, ComboError>, ComboError>(value: Future(value: 8))
        #expect(nested.flatten().value == 8)
    }

    @Test func flattenFailsWithTheOuterError() {
        let nested = Future<Future<Int, ComboError>, ComboError>(error: .first)
        #expect(nested.flatten().error == .first)
    }

    @Test func flattenFailsWithTheInnerError() {
        let nested = Future<Future<Int, ComboError>, ComboError>(value: Future(error: .second))
        #expect(nested.flatten().error == .second)
    }

    @Test func flattenWaitsForBothFutures() {
        let outer = Promise<Future<Int, ComboError>, ComboError>()
        let inner = Promise<Int, ComboError>()
        let flat = outer.future.flatten()
        outer.success(inner.future)
        #expect(!flat.isCompleted)
        inner.success(2)
        #expect(flat.value == 2)
    }
}
