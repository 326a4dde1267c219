import Dispatch
import Testing

@testable import Futures

@Suite("Context functions are accepted wherever a context is")
struct ContextFunctionOverloadTests {
    @Test func onSuccessCompilesWithoutAContextWithAContextAndWithAContextFunction() {
        let counting = CountingContext()
        let seen = Recorder<String>()
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let future = Future<Int, Never>(value: 1)
            future.onSuccess { _ in seen.append("default") }
            future.onSuccess(immediateExecutionContext) { _ in seen.append("context") }
            future.onSuccess(counting.function) { _ in seen.append("function") }
        }
        #expect(seen.values == ["default", "context", "function"])
        #expect(counting.count.value == 1)
    }

    @Test func onCompleteAndOnFailureRunOnAContextFunction() {
        let counting = CountingContext()
        let results = Recorder<String>()
        Future<Int, FuturesError>(error: .timedOut)
            .onComplete(counting.function) { results.append("complete \($0.error == .timedOut)") }
            .onFailure(counting.function) { results.append("failure \($0)") }
            .onSuccess(counting.function) { _ in results.append("success") }
        #expect(results.values == ["complete true", "failure timedOut"])
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
        let mapped = Future<Int, FuturesError>(value: 2).map(counting.function) { $0 * 10 }
        let chained = mapped.flatMap(counting.function) { Future<Int, FuturesError>(value: $0 + 1) }
        let viaResult = chained.flatMap(counting.function) { Result<String, FuturesError>.success("\($0)") }
        let failed = Future<Int, FuturesError>(error: .cancelled).mapError(counting.function) { _ in
            FuturesError.timedOut
        }
        #expect(mapped.value == 20)
        #expect(chained.value == 21)
        #expect(viaResult.value == "21")
        #expect(failed.error == .timedOut)
        #expect(counting.count.value == 4)
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
