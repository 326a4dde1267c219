import Testing

@testable import Futures

private enum Failure: Error, Equatable {
    case boom
    case bang
}

private func work(_ fail: Bool) throws(Failure) -> Int {
    if fail { throw .boom }
    return 7
}

@Suite("Result helpers and ResultProtocol")
struct ResultHelpersTests {
    @Test func initValueAndInitErrorBuildTheCases() {
        #expect(Result<Int, Failure>(value: 1) == .success(1))
        #expect(Result<Int, Failure>(error: .boom) == .failure(.boom))
    }

    @Test func aTrailingClosureStillMeansTheCatchingInitializer() {
        let success = Result { try work(false) }
        let failure = Result { try work(true) }
        let typed: Result<Int, any Error> = success  // not a Result of a closure (init(value:) is disfavoured)
        #expect(typed.value == 7)
        #expect(failure.error is Failure)
    }

    @Test func valueAndErrorReadTheCases() {
        let success = Result<Int, Failure>.success(1)
        let failure = Result<Int, Failure>.failure(.bang)
        #expect(success.value == 1 && success.error == nil)
        #expect(failure.value == nil && failure.error == .bang)
    }

    @Test func analysisRunsOnlyTheMatchingClosure() {
        let describe = { (result: Result<Int, Failure>) in
            result.analysis(ifSuccess: { "value \($0)" }, ifFailure: { "error \($0)" })
        }
        #expect(describe(.success(2)) == "value 2")
        #expect(describe(.failure(.boom)) == "error boom")
    }

    @Test func flatMapIntoAFutureChainsOnSuccessAndFailsOnFailure() {
        let chained = Result<Int, Failure>.success(2).flatMap { Future<String, Failure>(value: "\($0 * 2)") }
        let ran = Counter()
        let failed = Result<Int, Failure>.failure(.boom).flatMap { value -> Future<String, Failure> in
            ran.increment()
            return Future(value: "\(value)")
        }
        #expect(chained.value == "4")
        #expect(failed.error == .boom && ran.value == 0)
        // The standard library's Result-returning flatMap is still chosen for Result closures.
        #expect(Result<Int, Failure>.success(1).flatMap { .success($0 + 1) } == .success(2))
    }

    @Test func flattenOfAResultOfAResultTakesTheOuterFailureFirst() {
        typealias Nested = Result<Result<Int, Failure>, Failure>
        #expect(Nested.success(.success(1)).flatten() == .success(1))
        #expect(Nested.success(.failure(.bang)).flatten() == .failure(.bang))
        #expect(Nested.failure(.boom).flatten() == .failure(.boom))
    }

    @Test func flattenOfAResultOfAFutureGivesTheFutureOrAFailedOne() {
        let promise = Promise<Int, Failure>()
        let inner = Result<Future<Int, Failure>, Failure>.success(promise.future).flatten()
        let outer = Result<Future<Int, Failure>, Failure>.failure(.boom).flatten()
        #expect(!inner.isCompleted)
        promise.success(5)
        #expect(inner.value == 5)
        #expect(outer.error == .boom)
    }

    @Test func resultProtocolConstrainsGenericCode() {
        func successes<R: ResultProtocol>(_ results: [R]) -> [R.Success] {
            results.compactMap { $0.result.value }
        }
        func make<R: ResultProtocol>(_: R.Type, _ value: R.Success) -> R { R(value: value) }
        let results: [Result<Int, Failure>] = [.success(1), .failure(.boom), .success(3)]
        #expect(successes(results) == [1, 3])
        #expect(make(Result<Int, Failure>.self, 9) == .success(9))
        #expect(Result<Int, Failure>(error: .boom).result == .failure(.boom))
    }
}

/// A user's own `Result` extension that names `Error` must still mean `Swift.Error` with `Futures` imported.
extension Result {
    fileprivate func erased() -> Result<Success, any Error> {
        mapError { $0 as Error }
    }
}

@Suite("Result extensions in user code")
struct ResultUserExtensionTests {
    @Test func errorInsideAResultExtensionIsSwiftError() {
        #expect(Result<Int, Failure>.failure(.boom).erased().error is Failure)
    }
}
