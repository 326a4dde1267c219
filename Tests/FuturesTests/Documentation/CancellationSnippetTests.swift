import Foundation
import Futures
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The code of the catalog's "Cancellation" article (Futures.docc/Cancellation.md), verbatim, over small
// fakes of what it names (a session whose tasks record `cancel()`, an API, a download with a cancel hook):
// scripts/check-doc-snippets.sh fails when the two drift apart.
@Suite("Docs: Cancellation", .hangGuard())
struct CancellationSnippetTests {
    @Test func aTimeoutAtTheEndOfAChainCancelsTheRequestAtItsStart() async {
        enum PageError: Error { case timedOut, failed }
        let session = FakeSession()
        let url = URL(string: "http://127.0.0.1/page")!
        @Sendable func classify(_ error: any Error) -> PageError { .failed }

        // its producer registered a cancel hook
        let page = session.dataFuture(from: url)
            .mapError(classify)
            .timeout(after: .milliseconds(500), failingWith: .timedOut)
        // At 0.5 s the timeout asks `mapError`'s future to cancel, which asks
        // `dataFuture`'s: the request stops.

        await #expect(throws: PageError.timedOut) { try await page.get() }
        await session.cancelled.wait()
        #expect(session.cancelledTasks == 1)
    }

    @Test func sharedWorkIsCancelledOnlyOnceEveryConsumerAsked() {
        let cancellations = Counter()
        let inFlight = Recorder<Promise<Data, any Error>>()  // the downloads' producers, still working
        let file = "report.pdf"
        func download(_ name: String) -> Future<Data, any Error> {
            let promise = Promise<Data, any Error>()
            inFlight.append(promise)
            promise.onCancellationRequested { cancellations.increment() }
            return promise.future
        }
        @Sendable func makePreview(_ data: Data) -> String { "preview" }
        @Sendable func makeThumbnail(_ data: Data) -> String { "thumbnail" }

        // registered a cancellation handler
        let shared = download(file)
        let preview = shared.map(makePreview)
        let thumb = shared.map(makeThumbnail)
        // `shared` keeps running: `thumb` still needs it
        preview.requestCancellation()
        // now every consumer asked: `shared`'s handler runs
        thumb.requestCancellation()

        #expect(cancellations.value == 1)
        // The first step alone: one consumer of two asked, so the shared download is not cancelled.
        let shared2 = download(file)
        let preview2 = shared2.map(makePreview)
        let thumb2 = shared2.map(makeThumbnail)
        preview2.requestCancellation()
        #expect(cancellations.value == 1)
        #expect(!thumb2.isCompleted)
        inFlight.values.forEach { $0.failure(CancellationError()) }
    }

    @Test func aPromiseProducerCancelsItsTask() async {
        let session = FakeSession()
        func download(_ url: URL) -> Future<Data, any Error> {
            let promise = Promise<Data, any Error>()
            let task = session.dataTask(with: url) { data, _, error in
                if let data {
                    promise.trySuccess(data)
                } else {
                    promise.tryFailure(error ?? URLError(.unknown))
                }
            }
            // or check promise.isCancellationRequested
            promise.onCancellationRequested { task.cancel() }
            task.resume()
            return promise.future
        }

        let future = download(URL(string: "http://127.0.0.1/file")!)
        future.requestCancellation()
        await #expect(throws: URLError.self) { try await future.get() }
        #expect(session.cancelledTasks == 1)
    }

    @Test func aCancelHookIsCalledOnceOnRequest() async {
        let session = FakeSession()
        let url = URL(string: "http://127.0.0.1/file")!

        let future = Future<Data, any Error>(cancellable: { complete in
            let task = session.dataTask(with: url) { data, _, error in
                complete(
                    data.map { .success($0) }
                        ?? .failure(error ?? URLError(.unknown)))
            }
            task.resume()
            return { task.cancel() }
        })

        future.requestCancellation()
        future.requestCancellation()
        await #expect(throws: FuturesError.cancelled) { try await future.get() }
        #expect(session.cancelledTasks == 1)
    }

    @Test func aRequestCancelsTheSwiftTaskOfAnAsyncFuture() async {
        struct Profile: Sendable {}
        struct API: Sendable {
            func fetchProfile(_ id: Int) async throws -> Profile {
                try await Task.sleep(for: .seconds(3600))  // stands for a long request; cancelled below
                return Profile()
            }
        }
        let api = API()
        let id = 7

        // Future<Profile, any Error>
        let profile = Future { try await api.fetchProfile(id) }
        // cancels the Swift Task running the closure
        profile.requestCancellation()

        await #expect(throws: CancellationError.self) { try await profile.get() }
    }
}

/// A stand-in for `URLSession`: its tasks never finish by themselves; `cancel()` is recorded and, as
/// URLSession does, later calls the completion handler with `URLError(.cancelled)` from another thread.
private final class FakeSession: Sendable {
    private let cancelledCount = Counter()
    /// Signalled by every cancellation.
    let cancelled = DispatchSemaphoreBox()
    var cancelledTasks: Int { cancelledCount.value }

    final class DataTask: Sendable {
        private let session: FakeSession
        private let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void
        init(session: FakeSession, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
            self.session = session
            self.completion = completion
        }
        func resume() {}
        func cancel() {
            session.cancelledCount.increment()
            session.cancelled.signal()
            DispatchQueue.global().async { [completion] in completion(nil, nil, URLError(.cancelled)) }
        }
    }

    func dataTask(
        with url: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> DataTask {
        DataTask(session: self, completion: completionHandler)
    }

    /// A request as a future whose producer registered its cancel hook.
    func dataFuture(from url: URL) -> Future<Data, any Error> {
        Future<Data, any Error>(cancellable: { complete in
            let task = self.dataTask(with: url) { data, _, error in
                complete(
                    data.map { .success($0) }
                        ?? .failure(error ?? URLError(.unknown)))
            }
            task.resume()
            return { task.cancel() }
        })
    }
}

/// A semaphore the test awaits without blocking the cooperative pool.
private final class DispatchSemaphoreBox: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func signal() { semaphore.signal() }
    func wait() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.semaphore.wait()
                continuation.resume()
            }
        }
    }
}
