import Dispatch
import Futures
import Testing

// The code of the catalog's "Getting started" article (Futures.docc/GettingStarted.md), verbatim:
// scripts/check-doc-snippets.sh fails when the two drift apart.
@Suite("Docs: Getting started")
struct GettingStartedSnippetTests {
    @Test func theArticleRunsAsWritten() async throws {
        enum LoadError: Error { case notFound }

        func loadName(_ id: Int) -> Future<String, LoadError> {
            let promise = Promise<String, LoadError>()
            DispatchQueue.global().async {
                if id == 1 {
                    promise.success("Ada")
                } else {
                    promise.failure(.notFound)
                }
            }
            return promise.future
        }

        let greeting = loadName(1)
            .map { name in "Hello, \(name)" }
            // Future<String, Never>: it cannot fail any more
            .recover { _ in "Hello, stranger" }

        let text = await greeting.get()
        loadName(2)
            .onSuccess { name in print("found", name) }
            // LoadError.notFound
            .onFailure { error in print("failed:", error) }

        #expect(text == "Hello, Ada")
        let missing = loadName(2)
        await #expect(throws: LoadError.notFound) { try await missing.get() }
        #expect(await missing.recover { _ in "Hello, stranger" }.get() == "Hello, stranger")

        // was Future<String, Never>
        let failable: Future<String, LoadError> = greeting.promoteError()
        let checked = failable.flatMap { text in
            text.isEmpty ? Future(error: .notFound) : Future(value: text)
        }
        #expect(try await checked.get() == "Hello, Ada")
    }
}
