import Bolts
import Testing

/// The code of the `Bolts` module's root article, verbatim.
@Suite("Bolts article snippets", .hangGuard())
struct BoltsArticleSnippetTests {
    @Test func theOverviewExample() {
        let source = BFTaskCompletionSource<Int>()
        let described = source.task
            .continueOnSuccessWith { task in task.result! * 2 }
            .continueWith { task in
                task.isFaulted ? "failed" : "got \(task.result!)"
            }
        source.set(result: 21)
        described.waitUntilFinished()
        #expect(described.result == "got 42")
    }
}
