import BrightFutures
import Testing

@Suite("Async<Value>: BrightFutures' non-failing base type")
struct AsyncTests {
    @Test func initResultIsCompleted() {
        let value = Async(result: 1)
        #expect(value.isCompleted && value.result == 1)
    }

    @Test func descriptionShowsTheTypeAndOptionalResult() {
        #expect(Async(result: 1).description == "Async<Int>(Optional(1))")
        #expect(Async<Int>().description == "Async<Int>(nil)")
        #expect(Async(result: "a").debugDescription == Async(result: "a").description)
        #expect("\(Async(result: 1))" == "Async<Int>(Optional(1))")
    }

    @Test func onCompleteRunsTheCallbackOnTheContext() {
        let seen = Recorder<Int>()
        Async(result: 3).onComplete(Futures.immediateExecutionContext) { seen.append($0) }
        let counting = CountingContext()
        Async(result: 4).onComplete(counting.function) { seen.append($0) }
        #expect(seen.values == [3, 4])
        #expect(counting.count.value == 1)
    }

    @Test func onCompleteWithoutAContextUsesTheDefault() {
        let seen = Counter()
        DefaultExecutionContext.withDefault(Futures.immediateExecutionContext) {
            _ = Async(result: 1).onComplete { _ in seen.increment() }
        }
        #expect(seen.value == 1)
    }

    @Test func resolverCompletesItFromAnyThreadAndGetWaitsWithoutThrowing() async {
        let value = Async<Int> { complete in DispatchQueue.global().async { complete(8) } }
        #expect(await value.get() == 8)
        #expect(value.forced() == 8)
    }

    @Test func flattenWaitsForTheInnerValue() async {
        let inner = Promise<Int, Never>()
        let nested = Async(result: Async(inner.future))
        let flat = nested.flatten()
        #expect(!flat.isCompleted)
        inner.success(9)
        #expect(flat.result == 9)
        #expect(await Async(other: flat).get() == 9)
    }
}
