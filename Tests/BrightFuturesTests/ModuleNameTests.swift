import BrightFutures
import Testing

private enum Failure: Error, Equatable {
    case boom
}

/// `import BrightFutures` code that spells names through the module keeps compiling, without warnings
/// (this target builds with zero warnings).
@Suite("BrightFutures module: names spelled through the module")
struct ModuleNameTests {
    @Test func materializeThroughTheModuleName() {
        let both: BrightFutures.Future<Int, Failure> =
            BrightFutures.materialize { done in done(4, nil) }
        let value = BrightFutures.materialize { (done: @escaping @Sendable (Int) -> Void) in done(5) }
        let error = BrightFutures.materialize { (done: @escaping @Sendable (Failure?) -> Void) in done(.boom) }
        #expect(both.value == 4 && value.value == 5 && error.error == .boom)
    }

    @Test func typesThroughTheModuleName() {
        let promise = BrightFutures.Promise<Int, BrightFutures.BrightFuturesError<Failure>>()
        promise.failure(.external(.boom))
        let context: BrightFutures.ExecutionContext = BrightFutures.immediateExecutionContext
        let token: BrightFutures.InvalidationToken = BrightFutures.InvalidationToken()
        let seen = Recorder<Bool>()
        promise.future.onFailure(context) { seen.append($0 == .external(.boom)) }
        #expect(seen.values == [true] && token.isInvalid == false)
        let defaultContext: BrightFutures.ExecutionContext = BrightFutures.defaultContext()
        _ = defaultContext
        let async: BrightFutures.Async<Int> = Async(result: 1)
        let same: Async<Int> = BrightFutures.Async(other: async)
        #expect(same.result == 1)
    }

    @Test func namesTheCoreSpellsDifferently() {
        let cannotSucceed: Future<NoValue, Failure> = Future(error: .boom)
        let promoted: Future<Int, Failure> = cannotSucceed.promoteValue()
        let logger: LoggerType = Logger()
        #expect(promoted.error == .boom && logger is PrintLogger)
        let failure: BrightFuturesError<Failure> = BrightFuturesError(external: .boom)
        let cases: [BrightFuturesError<Failure>] = [.noSuchElement, .invalidationTokenInvalidated, .illegalState]
        #expect(failure == .external(.boom) && !cases.contains(failure) && cases.allSatisfy { cases.contains($0) })
        let signal: Future<Never, BrightFuturesError<Never>> = InvalidationToken().future
        #expect(!signal.isCompleted)
    }
}
