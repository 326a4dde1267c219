import Testing

@testable import Futures

private enum Failure: Error, Equatable, Hashable {
    case boom
    case bang
}

@Suite("CombinatorError: cases, init(external:), equality")
struct CombinatorErrorTests {
    @Test func initExternalWrapsTheError() {
        #expect(CombinatorError(external: Failure.boom) == .external(.boom))
    }

    @Test func everyCaseEqualsItselfAndNoOtherCase() {
        let all: [CombinatorError<Failure>] = [
            .noSuchElement, .invalidationTokenInvalidated, .illegalState, .external(.boom), .external(.bang),
        ]
        for (i, lhs) in all.enumerated() {
            for (j, rhs) in all.enumerated() {
                #expect((lhs == rhs) == (i == j), "\(lhs) vs \(rhs)")
            }
        }
    }

    @Test func illegalStateEqualsItself() {
        // BrightFutures' hand-written == returned false here.
        #expect(CombinatorError<Never>.illegalState == .illegalState)
    }

    @Test func equalErrorsHashEqually() {
        let set: Set<CombinatorError<Failure>> = [.external(.boom), .external(.boom), .illegalState]
        #expect(set.count == 2)
    }

    @Test func promoteErrorKeepsEveryCaseOfANeverWrappingError() {
        let cases: [CombinatorError<Never>] = [.noSuchElement, .invalidationTokenInvalidated, .illegalState]
        for error in cases {
            let promoted: Future<Int, CombinatorError<Failure>> =
                Future<Int, CombinatorError<Never>>(error: error).promoteError()
            let expected: CombinatorError<Failure> =
                switch error {
                case .noSuchElement: .noSuchElement
                case .invalidationTokenInvalidated: .invalidationTokenInvalidated
                case .illegalState: .illegalState
                }
            #expect(promoted.error == expected)
        }
    }

    @Test func promoteErrorKeepsTheValueAndFollowsAPendingFuture() {
        let promise = Promise<Int, CombinatorError<Never>>()
        let promoted: Future<Int, CombinatorError<Failure>> = promise.future.promoteError()
        #expect(!promoted.isCompleted)
        promise.success(3)
        #expect(promoted.value == 3)
    }

    @Test func anInvalidationTokenFutureCanBePromoted() {
        let token = InvalidationToken()
        let promoted: Future<Never, CombinatorError<Failure>> = token.future.promoteError()
        token.invalidate()
        #expect(promoted.error == .invalidationTokenInvalidated)
    }
}
