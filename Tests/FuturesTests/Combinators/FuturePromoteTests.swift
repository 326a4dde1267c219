import Testing

@testable import Futures

@Suite("promoteError and promoteValue")
struct FuturePromoteTests {
    @Test func promoteErrorGivesANeverFailingFutureAnyErrorType() {
        let promoted: Future<Int, ComboError> = Future<Int, Never>(value: 1).promoteError()
        #expect(promoted.value == 1)
        let zipped = promoted.zip(Future<Int, ComboError>(value: 2))
        #expect(zipped.value?.1 == 2)
    }

    @Test func promoteErrorWaitsForAPendingFuture() {
        let promise = Promise<Int, Never>()
        let promoted: Future<Int, ComboError> = promise.future.promoteError()
        #expect(!promoted.isCompleted)
        promise.success(6)
        #expect(promoted.value == 6)
    }

    @Test func promoteValueGivesANeverSucceedingFutureAnyValueType() {
        let promoted: Future<String, ComboError> = Future<Never, ComboError>(error: .second).promoteValue()
        #expect(promoted.error == .second)
        let pending = Promise<Never, ComboError>()
        let later: Future<Int, ComboError> = pending.future.promoteValue()
        pending.failure(.first)
        #expect(later.error == .first)
    }

    @Test func promoteErrorOfACombinatorErrorOfNeverKeepsEveryCase() {
        let cases: [CombinatorError<Never>] = [.noSuchElement, .invalidationTokenInvalidated, .illegalState]
        for error in cases {
            let promoted: Future<Int, CombinatorError<ComboError>> =
                Future<Int, CombinatorError<Never>>(error: error).promoteError()
            #expect(promoted.error?.caseName == error.caseName)
        }
        let pending = Promise<Int, CombinatorError<Never>>()
        let later: Future<Int, CombinatorError<ComboError>> = pending.future.promoteError()
        pending.failure(.illegalState)
        #expect(later.error?.caseName == "illegalState")
    }
}
