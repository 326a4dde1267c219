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
        let consumer = Task {
            var values: [Int] = []
            // replay: 2, 3; then live values until finish()
            for try await value in promise.stream { values.append(value * 10) }
            return values
        }

        // What the article states: a new consumer gets the kept results, then live ones; a failure is a
        // value in `results`, and ends a `for try await` loop by being thrown.
        promise.failure(StreamsDocError.late)
        promise.success(4)
        promise.finish()
        #expect(promise.tryComplete(.success(5)) == false)
        let printing = Task {
            for await result in promise.stream.results {
                if case .failure(let error) = result { print("failed:", error) }
            }
        }
        await printing.value  // the loop ends at finish()
        var seen: [String] = []
        for await result in promise.stream.results {
            switch result {
            case .success(let value): seen.append("\(value)")
            case .failure: seen.append("failure")
            }
        }
        #expect(seen == ["failure", "4"])
        // The loop subscribed when its task started: before the failure (replay 2, 3, then it throws), or
        // after it (the failure is replayed and thrown): either way the loop ends with the failure.
        await #expect(throws: StreamsDocError.late) { try await consumer.value }
    }

    @Test func aLoopEndsAtFinishAndSeesEveryLiveValueOnce() async throws {
        let promise = StreamPromise<Int>(capacity: 1)
        promise.success(1)
        let collected = Task {
            var values: [Int] = []
            for try await value in promise.stream { values.append(value) }
            return values
        }
        for await _ in promise.stream.results { break }  // the stream is live and replays its last value
        promise.success(2)
        promise.success(3)
        promise.finish()
        let values = try await collected.value
        // The loop started before or after 2 and 3 were published; either way it ends at finish() and each
        // value it got, it got once and in order.
        #expect(values == [1, 2, 3] || values == [2, 3] || values == [3])
    }
}

private enum StreamsDocError: Error, Equatable {
    case late
}
