import Testing

@testable import Futures

@Suite("asVoid and forceType")
struct FutureCastTests {
    @Test func asVoidKeepsTheCompletionAndDropsTheValue() {
        let promise = Promise<Int, ComboError>()
        let void = promise.future.asVoid()
        #expect(!void.isCompleted)
        promise.success(3)
        #expect(void.isSuccess)
    }

    @Test func asVoidKeepsTheFailure() {
        #expect(Future<Int, ComboError>(error: .first).asVoid().error == .first)
    }

    @Test func forceTypeCastsTheValue() {
        let erased = Future<any Sendable, ComboError>(value: 5)
        let typed: Future<Int, ComboError> = erased.forceType()
        #expect(typed.value == 5)
    }

    @Test func forceTypeCastsTheError() {
        let erased = Future<Int, any Error>(error: ComboError.second)
        let typed: Future<Int, ComboError> = erased.forceType()
        #expect(typed.error == .second)
    }

    @Test func forceTypeWaitsForAPendingFuture() {
        let promise = Promise<any Sendable, any Error>()
        let typed: Future<String, ComboError> = promise.future.forceType()
        #expect(!typed.isCompleted)
        promise.success("cast")
        #expect(typed.value == "cast")
    }
}
