import SimpleFutures
import Testing

// The code blocks of the SimpleFutures catalog (Sources/SimpleFutures/SimpleFutures.docc), verbatim.

@Suite("SimpleFutures: documentation snippets")
struct DocSnippetTests {
    @Test func promiseAndMap() {
        let promise = Promise<Int>()
        let doubled = promise.future.map(context: ImmediateContext()) { $0 * 2 }
        doubled.onSuccess(context: ImmediateContext()) { value in print(value) }
        promise.success(21)
        #expect(doubled.result?.value == 42)
    }

    @Test func streamReplay() {
        let updates = StreamPromise<Int>(capacity: 2)
        updates.success(1)
        updates.success(2)
        updates.success(3)
        updates.stream.onSuccess(context: ImmediateContext()) { value in
            print(value)  // 2, then 3
        }
        #expect(updates.stream.count == 2)
    }

    @Test func customContext() {
        let ran = Counter()
        let counting = ExecutionContext { task in
            ran.increment()
            task()
        }
        _ = Future(value: 1).map(context: counting) { $0 }
        #expect(ran.value == 1)
    }

    @Test func copies() {
        let future = Future<Int>()
        let copy = future
        copy.success(1)
        #expect(future.completed)
    }
}
