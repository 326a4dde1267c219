import Foundation
import Futures
import Synchronization

/// SimpleFutures' story (seed 004): a producer polls the site's news and publishes each headline into
/// a `FutureStream`; a live reader consumes it with `for try await`, and a reader who arrives late first
/// gets the last headlines the stream keeps (its capacity), then the live ones.
func storyStream(_ client: SiteClient) async -> StoryRow {
    chapter("4. A stream with two readers (SimpleFutures' FutureStream)")
    let before = client.site.server.requestCount
    let clock = Stopwatch()
    let news = StreamPromise<String>(capacity: 2)
    let lateReader = Mutex<Task<[String], any Error>?>(nil)

    // The live reader: an AsyncSequence loop that ends when the producer finishes the stream.
    let live = Task {
        var read: [String] = []
        for try await headline in news.stream { read.append(headline) }
        return read
    }

    // The producer: one request per headline, the next asked for when the previous one arrived.
    @Sendable func poll(after index: Int) -> Future<Int, SiteError> {
        client.send("/news?after=\(index)").flatMap(immediateExecutionContext) { data -> Future<Int, SiteError> in
            guard !data.isEmpty else { return Future(value: index + 1) }  // 204: no more news
            news.success(String(decoding: data, as: UTF8.self))
            if index + 1 == 3 {
                // The late reader joins after the fourth headline: it is replayed the last two, then gets
                // the live ones. The producer polls on once the reader's loop has subscribed.
                let subscribed = Promise<Void, Never>()
                lateReader.withLock {
                    $0 = Task {
                        var reader = news.stream.makeAsyncIterator()
                        subscribed.success(())
                        var read: [String] = []
                        while let headline = try await reader.next() { read.append(headline) }
                        return read
                    }
                }
                return subscribed.future.promoteError().flatMap(immediateExecutionContext) { poll(after: index + 1) }
            }
            return poll(after: index + 1)
        }
    }
    let published = (try? await poll(after: -1).get()) ?? 0
    news.finish()

    let liveRead = (try? await live.value) ?? []
    let lateRead = (try? await lateReader.withLock { $0 }?.value) ?? []
    say("the producer published \(published) headlines, polling the site once for each")
    say("live reader (for try await): \(liveRead.count) headlines, from \"\(liveRead.first ?? "")\" on")
    say(
        "late reader, joined after the 4th (capacity 2): replayed \(lateRead.prefix(2).map { "\"\($0)\"" }.joined(separator: ", ")),"
    )
    say("  then live: \(lateRead.dropFirst(2).map { "\"\($0)\"" }.joined(separator: ", "))")

    let requests = client.site.server.requestCount - before
    return StoryRow(
        story: "news stream, 2 readers", requests: requests, milliseconds: clock.milliseconds,
        outcome: "\(liveRead.count) live, \(lateRead.count) late")
}
