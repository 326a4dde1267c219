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
        // on queue's thread: 42
        doubled.onSuccess(immediateExecutionContext) { value in print(value) }

        #expect(await doubled.get() == 42)
    }

    @Test func theDefaultContextCanBeReplacedForAScope() {
        let context = immediateExecutionContext
        let value = DefaultExecutionContext.withDefault(context) {
            // ran synchronously: 2
            Future<Int, Never>(value: 1).map { $0 + 1 }.value
        }

        #expect(value == 2)
    }
}
