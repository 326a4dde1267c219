import Testing

@testable import Futures

private enum Failure: Error, Equatable, Hashable {
    case boom
    case bang
}

@Suite("BrightFuturesError: cases, init(external:), equality")
struct BrightFuturesErrorTests {
    @Test func initExternalWrapsTheError() {
        #expect(BrightFuturesError(external: Failure.boom) == .external(.boom))
    }

    @Test func everyCaseEqualsItselfAndNoOtherCase() {
        let all: [BrightFuturesError<Failure>] = [
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
        #expect(BrightFuturesError<Never>.illegalState == .illegalState)
    }

    @Test func equalErrorsHashEqually() {
        let set: Set<BrightFuturesError<Failure>> = [.external(.boom), .external(.boom), .illegalState]
        #expect(set.count == 2)
    }

    @Test func promoteErrorKeepsEveryCaseOfANeverWrappingError() {
        let cases: [BrightFuturesError<Never>] = [.noSuchElement, .invalidationTokenInvalidated, .illegalState]
        for error in cases {
            let promoted: Future<Int, BrightFuturesError<Failure>> =
                Future<Int, BrightFuturesError<Never>>(error: error).promoteError()
            let expected: BrightFuturesError<Failure> =
                switch error {
                case .noSuchElement: .noSuchElement
                case .invalidationTokenInvalidated: .invalidationTokenInvalidated
                case .illegalState: .illegalState
                }
            #expect(promoted.error == expected)
        }
    }

    @Test func promoteErrorKeepsTheValueAndFollowsAPendingFuture() {
        let promise = Promise<Int, BrightFuturesError<Never>>()
        let promoted: Future<Int, BrightFuturesError<Failure>> = promise.future.promoteError()
        #expect(!promoted.isCompleted)
        promise.success(3)
        #expect(promoted.value == 3)
    }

    @Test func anInvalidationTokenFutureCanBePromoted() {
        let token = InvalidationToken()
        let promoted: Future<Never, BrightFuturesError<Failure>> = token.future.promoteError()
        token.invalidate()
        #expect(promoted.error == .invalidationTokenInvalidated)
    }
}
