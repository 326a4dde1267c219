import Foundation
import Testing

@testable import Futures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The code of the catalog's "Many requests at once" article (Futures.docc/ManyRequestsAtOnce.md), verbatim:
// scripts/check-doc-snippets.sh fails when the two drift apart. Requests go to a server on 127.0.0.1.
@Suite("Docs: Many requests at once", .hangGuard())
struct ManyRequestsAtOnceSnippetTests {
    @Test func theArticleRunsAsWritten() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let session = makeLoopbackSession()
        let url = server.url("/ok")
        let urls = [
            server.url("/ok"), server.url("/missing"), URL(string: "http://127.0.0.1:\(TestHTTPServer.closedPort())/")!,
        ]

        // Future<(Data, URLResponse), any Error>
        let page = session.dataFuture(from: url)
        let status = page.map { _, response in
            (response as? HTTPURLResponse)?.statusCode
        }
        #expect(try await status.get() == 200)

        let limiter = ConcurrencyLimiter(maxConcurrent: 4)
        let pages = urls.map { url in
            limiter.submit { session.dataFuture(from: url) }
        }

        let bounded = limiter.submit(timeout: .seconds(30)) {
            session.dataFuture(from: url)
        }
        #expect(try await bounded.get().0 == Data("hello".utf8))

        // [Result<(Data, URLResponse), any Error>]
        let outcomes = await pages.settled().get()
        let failed = outcomes.filter { (try? $0.get()) == nil }.count
        #expect(outcomes.count == 3 && failed == 1)

        let downloads = urls.traverseAsCompleted(maxConcurrent: 4) {
            session.dataFuture(from: $0)
        }
        for try await (index, result) in downloads {
            switch result {
            case .success(let (data, _)): print(urls[index], data.count, "bytes")
            case .failure(let error): print(urls[index], "failed:", error)
            }
        }
        #expect(server.requestedPaths.filter { $0 == "/missing" }.count == 2)
    }

    @Test func cancelAllRemovesWaitingWorkAndAsksRunningWorkToStop() async {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let running = Promise<Int, any Error>()
        running.future.onCancellationRequested { running.failure(FuturesError.cancelled) }
        let first = limiter.submit { running.future }
        let waiting = limiter.submit { Future<Int, any Error>(value: 2) }
        // waiting work is removed, running work is asked to stop
        limiter.cancelAll()
        await #expect(throws: FuturesError.cancelled) { try await first.get() }
        await #expect(throws: FuturesError.cancelled) { try await waiting.get() }
    }
}
