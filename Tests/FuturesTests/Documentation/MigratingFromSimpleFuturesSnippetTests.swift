import Futures
import Testing

// The swift-futures side of the code in the catalog's "Migrating from SimpleFutures" guide
// (Futures.docc/MigratingFromSimpleFutures.md), verbatim: scripts/check-doc-snippets.sh fails when the two
// drift apart.
@Suite("Docs: Migrating from SimpleFutures")
struct MigratingFromSimpleFuturesSnippetTests {
    @Test func completeWithFollowsAFutureOrAStream() async throws {
        let dependentFuture = Future<Int, any Error>(value: 1)
        let source = StreamPromise<Int>()
        let dependentStream = source.stream

        let another = Promise<Int, any Error>()
        // or completeWith(context:future:)
        another.completeWith(future: dependentFuture)
        let anotherFuture = another.future

        let anotherStream = StreamPromise<Int>()
        anotherStream.completeWith(future: dependentFuture)
        anotherStream.completeWith(stream: dependentStream)

        #expect(try await anotherFuture.get() == 1)
        source.success(2)
        var values: [Int] = []
        for try await value in anotherStream.stream {
            values.append(value)
            if values.count == 2 { break }
        }
        #expect(values.sorted() == [1, 2])
    }
}
