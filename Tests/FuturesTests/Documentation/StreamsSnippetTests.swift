import Futures
import Testing

// The code of the catalog's "Streams" article (Futures.docc/Streams.md), verbatim:
// scripts/check-doc-snippets.sh fails when the two drift apart.
@Suite("Docs: Streams")
struct StreamsSnippetTests {
    @Test func theArticleRunsAsWritten() async throws {
        let promise = StreamPromise<Int>(capacity: 2)
        promise.success(1)
        promise.success(2)
        // 1 is dropped: only 2 results are kept
        promise.success(3)
        // replay: 2, 3
        promise.stream.onSuccess(context: immediateExecutionContext) { print($0) }
        promise.success(4)  // live: 4

        let tenfold = promise.stream.map(context: immediateExecutionContext) {
            $0 * 10
        }
        let even = tenfold.withFilter(context: immediateExecutionContext) {
            $0 % 20 == 0
        }

        let consumer = Task {
            var values: [Int] = []
            for try await value in tenfold { values.append(value) }
            return values
        }

        // What the article states: a subscriber gets the kept results (3, 4 now), then live ones.
        let seen = Recorder<Int>()
        promise.stream.onSuccess(context: immediateExecutionContext) { seen.append($0) }
        #expect(seen.values == [3, 4])
        var evenValues: [Int] = []
        for await result in even.results {
            if case .success(let value) = result { evenValues.append(value) }
            if evenValues.count == 1 { break }
        }
        #expect(evenValues == [40])
        promise.success(5)
        promise.finish()
        #expect(seen.values == [3, 4, 5])
        // The loop subscribed when its task started: before 5 (replay 30, 40), or after it (replay 40, 50).
        let looped = try await consumer.value
        #expect(looped == [30, 40, 50] || looped == [40, 50])
    }
}
