import Dispatch
import Futures
import Testing

// The code of the catalog's "The threading model" article (Futures.docc/ThreadingModel.md), verbatim:
// scripts/check-doc-snippets.sh fails when the two drift apart.
@Suite("Docs: The threading model")
struct ThreadingModelSnippetTests {
    @Test func contextsDecideWhereClosuresRun() async {
        let queue = DispatchQueue(label: "work")
        let doubled = Future<Int, Never>(value: 21).map(queue.context) { $0 * 2 }
        doubled.onSuccess(immediateExecutionContext) { value in print(value) }  // on queue's thread: 42

        #expect(await doubled.get() == 42)
    }

    @Test func theDefaultContextCanBeReplacedForAScope() {
        let value = DefaultExecutionContext.withDefault(immediateExecutionContext) {
            Future<Int, Never>(value: 1).map { $0 + 1 }.value  // ran synchronously: 2
        }

        #expect(value == 2)
    }
}
