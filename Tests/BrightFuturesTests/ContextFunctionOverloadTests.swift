import BrightFutures
import Dispatch
import Testing

private enum Boom: Error, Equatable {
    case first
    case second
}

@Suite("Context functions are accepted wherever the core takes a context")
struct ContextFunctionOverloadTests {
    @Test func onSuccessCompilesWithoutAContextAndWithAContextFunction() {
        let counting = CountingContext()
        let seen = Recorder<String>()
        DefaultExecutionContext.withDefault(Futures.immediateExecutionContext) {
            let future = Future<Int, Never>(value: 1)
            future.onSuccess { _ in seen.append("default") }
            future.onSuccess(immediateExecutionContext) { _ in seen.append("immediate") }
            future.onSuccess(counting.function) { _ in seen.append("function") }
        }
        #expect(seen.values == ["default", "immediate", "function"])
        #expect(counting.count.value == 1)
    }

    @Test func onCompleteAndOnFailureRunOnAContextFunction() {
        let counting = CountingContext()
        let results = Recorder<String>()
        Future<Int, Boom>(error: .first)
            .onComplete(counting.function) { results.append("complete \($0.error == .first)") }
            .onFailure(counting.function) { results.append("failure \($0)") }
            .onSuccess(counting.function) { _ in results.append("success") }
        #expect(results.values == ["complete true", "failure first"])
        #expect(counting.count.value == 3)  // onSuccess's task ran too, and skipped the callback
    }

    @Test func andThenRunsItsCallbackOnAContextFunction() {
        let counting = CountingContext()
        let seen = Counter()
        let next = Future<Int, Never>(value: 4).andThen(context: counting.function) { _ in seen.increment() }
        #expect(next.value == 4)
        #expect(seen.value == 1 && counting.count.value == 1)
    }

    @Test func mapFlatMapAndMapErrorRunOnAContextFunction() {
        let counting = CountingContext()
        let mapped = Future<Int, Boom>(value: 2).map(counting.function) { $0 * 10 }
        let chained = mapped.flatMap(counting.function) { Future<Int, Boom>(value: $0 + 1) }
        let viaResult = chained.flatMap(counting.function) { Result<String, Boom>.success("\($0)") }
        let failed = Future<Int, Boom>(error: .first).mapError(counting.function) { _ in Boom.second }
        #expect(mapped.value == 20)
        #expect(chained.value == 21)
        #expect(viaResult.value == "21")
        #expect(failed.error == .second)
        #expect(counting.count.value == 4)
    }

    @Test func recoverAndRecoverWithRunOnAContextFunctionOnlyOnFailure() {
        let counting = CountingContext()
        let failed = Future<Int, Boom>(error: .first)
        let recovered = failed.recover(context: counting.function) { _ in 3 }
        let followed = failed.recoverWith(context: counting.function) { _ in Future<Int, Never>(value: 4) }
        let untouched = Future<Int, Boom>(value: 9).recover(context: counting.function) { _ in 0 }
        #expect(recovered.value == 3 && followed.value == 4 && untouched.value == 9)
        #expect(counting.count.value == 3)  // the success's task ran too, and passed the value on
    }

    @Test func aPendingFutureRunsTheStepOnTheContextFunctionAtCompletion() {
        let counting = CountingContext()
        let promise = Promise<Int, Boom>()
        let mapped = promise.future.map(counting.function) { $0 + 1 }
        #expect(!mapped.isCompleted && counting.count.value == 0)
        promise.success(1)
        #expect(mapped.value == 2 && counting.count.value == 1)
    }

    @Test func theSequenceOperationsRunOnAContextFunction() {
        let counting = CountingContext()
        let futures = [Future<Int, Boom>(value: 1), Future(value: 2)]
        let traversed = [1, 2].traverse(counting.function) { Future<Int, Boom>(value: $0 * 10) }
        let found = futures.find(counting.function) { $0 > 1 }
        let folded = futures.fold(counting.function, zero: 10) { $0 + $1 }
        #expect(traversed.value == [10, 20] && found.value == 2 && folded.value == 13)
        #expect(counting.count.value == 3)
    }

    @Test func debugLogsOnAContextFunction() {
        let counting = CountingContext()
        let logger = Lines()
        let logged = Future<Int, Never>(value: 1).debug("fn", logger: logger, context: counting.function)
        #expect(logged.value == 1)
        #expect(logger.values.count == 1 && logger.values.allSatisfy { $0.contains("fn") })
        #expect(counting.count.value == 1)
    }

    @Test func anInlineClosureLiteralIsAContext() {
        let order = Recorder<String>()
        Future<Int, Never>(value: 1).onSuccess({ task in
            order.append("context")
            task()
        }) { _ in order.append("callback") }
        #expect(order.values == ["context", "callback"])
    }
}

/// A logger that keeps its lines.
private final class Lines: LoggerType, Sendable {
    private let lines = Recorder<String>()
    var values: [String] { lines.values }
    func log(message: String) { lines.append(message) }
}
