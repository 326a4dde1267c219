import Clocks
import Foundation
import Testing

@testable import Futures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sessions made for the loopback tests, kept until the process exits: a session that is dropped without
/// being invalidated leaves connection state behind that LeakSanitizer reports. Each test still gets a
/// session of its own.
let loopbackSessions = LockedSessions()

final class LockedSessions: Sendable {
    private let sessions = LockedBox<[URLSession]>([])

    func keep(_ session: URLSession) -> URLSession {
        sessions.withValue { $0.append(session) }
        return session
    }
}

/// A session that never uses a proxy. Its own timeouts are as long as the server's longest hold (30 min):
/// the tests that hold a request open decide when it ends. On a loaded 2-core machine, and under a
/// sanitizer where the long synchronous tests hold the cooperative pool for minutes, 10 s and then 50 s
/// were reached before the tests got to cancel; the suite's hang guard is what keeps a test from hanging.
func makeLoopbackSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.connectionProxyDictionary = [:]
    configuration.timeoutIntervalForRequest = 1_800
    configuration.timeoutIntervalForResource = 1_800
    return loopbackSessions.keep(URLSession(configuration: configuration))
}

func httpStatus(_ response: URLResponse) -> Int? {
    (response as? HTTPURLResponse)?.statusCode
}

@Suite("URLSession futures against a real server on 127.0.0.1", .hangGuard())
struct URLSessionFuturesTests {
    @Test func aSuccessfulRequestDeliversBodyAndStatus() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let (data, response) = try await makeLoopbackSession().dataFuture(from: server.url("/ok")).get()
        #expect(String(decoding: data, as: UTF8.self) == "hello")
        #expect(httpStatus(response) == 200)
    }

    @Test func aProgressReportingRequestReportsBytesReceivedOfTheContentLength() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let expected = Double(TestHTTPServer.bytesCount)
        let download = makeLoopbackSession().dataFutureReportingProgress(for: URLRequest(url: server.url("/bytes")))
        let log = SnapshotLog()
        let finished = Promise<Void, Never>()
        download.map(immediateExecutionContext) { data, _ in data.count }.progress.onUpdate(immediateExecutionContext) {
            log.append($0)
            if $0.isFinished { finished.trySuccess(()) }
        }
        let (data, response) = try await download.get()
        await finished.future.get()
        #expect(data.count == TestHTTPServer.bytesCount)
        #expect(httpStatus(response) == 200)
        let partial = log.all.filter { !$0.isFinished && $0.completed > 0 }
        #expect(!partial.isEmpty)
        #expect(partial.allSatisfy { $0.total == expected && $0.completed <= expected })
        #expect(log.all.last == ProgressSnapshot(completed: expected, total: expected, isFinished: true))
    }

    @Test func aProgressReportingRequestFailsAndCancelsLikeThePlainOne() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let refused = makeLoopbackSession().dataFutureReportingProgress(
            for: URLRequest(url: URL(string: "http://127.0.0.1:\(TestHTTPServer.closedPort())/")!)
        )
        await #expect(throws: (any Error).self) { try await refused.get() }
        #expect(refused.progress.current.isFinished)
        let held = makeLoopbackSession().dataFutureReportingProgress(for: URLRequest(url: server.url("/hold")))
        await server.holdArrived.get()
        held.requestCancellation()
        await #expect(throws: FuturesError.cancelled) { try await held.get() }
    }

    @Test func a404IsASuccessfulFutureCarryingTheStatus() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let (data, response) = try await makeLoopbackSession().dataFuture(for: URLRequest(url: server.url("/nope")))
            .get()
        #expect(httpStatus(response) == 404)
        #expect(String(decoding: data, as: UTF8.self) == "not found")
    }

    @Test func aRefusedConnectionFailsTheFuture() async {
        let url = URL(string: "http://127.0.0.1:\(TestHTTPServer.closedPort())/ok")!
        let result = await makeLoopbackSession().dataFuture(from: url).settledResult()
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect((error as? FuturesError) == nil)
        #expect((error as NSError).code == NSURLErrorCannotConnectToHost)
    }

    @Test func cancellingAnInFlightRequestCancelsTheTaskAndFailsWithCancelled() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let future = makeLoopbackSession().dataFuture(from: server.url("/hold"))
        await server.holdArrived.get()
        #expect(!future.isCompleted)
        future.requestCancellation()
        let result = await future.settledResult()
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error as? FuturesError == .cancelled)
        // The task really was cancelled: the server sees the client hang up.
        await server.holdClosedByClient.get()
    }

    /// A crawler's case: the timeout fired, but the request behind `mapError` ran on. The timeout now asks
    /// its source as a consumer, and `mapError`'s future passes the request on to the request itself.
    @Test func aTimeoutOnAMappedRequestCancelsTheRequestItself() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let clock = TestClock()
        let request = makeLoopbackSession().dataFuture(from: server.url("/hold"))
        let page = request.mapError { _ in CrawlError.offline }
            .timeout(after: .milliseconds(500), clock: clock, failingWith: .timedOut)
        await server.holdArrived.get()
        await clock.advance(by: .milliseconds(500))
        #expect(await page.settledResult().error == .timedOut)
        #expect((await request.settledResult().error as? FuturesError) == .cancelled)
        await server.holdClosedByClient.get()  // the client really hung up
    }

    @Test func aTimeoutDoesNotCancelARequestSomeoneElseStillWaitsFor() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let clock = TestClock()
        let request = makeLoopbackSession().dataFuture(from: server.url("/hold"))
        let other = request.map { $0.0.count }  // a second consumer that never asks
        let page = request.mapError { _ in CrawlError.offline }
            .timeout(after: .milliseconds(500), clock: clock, failingWith: .timedOut)
        await server.holdArrived.get()
        await clock.advance(by: .milliseconds(500))
        #expect(await page.settledResult().error == .timedOut)
        #expect(!request.isCancellationRequested, "shared work keeps running for `other`")
        #expect(!other.isCompleted)
        other.requestCancellation()  // now every consumer asked
        #expect(request.isCancellationRequested)
        await server.holdClosedByClient.get()
    }

    @Test func theDeferredFormSendsNothingUntilExecutedAndSendsAgainEachTime() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let request = makeLoopbackSession().dataDeferred(from: server.url("/ok")).map { httpStatus($0.1) }
        #expect(server.requestedPaths.isEmpty)
        let first = try await request.run().get()
        let second = try await request.run().get()
        #expect(first == 200 && second == 200)
        #expect(server.requestedPaths == ["/ok", "/ok"])
    }

    @Test func cancellingARunningDeferredRequestCancelsItsTask() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let session = makeLoopbackSession()
        let running = session.dataDeferred(from: server.url("/ok"))
            .flatMap { _ in session.dataDeferred(from: server.url("/hold")) }
            .map { httpStatus($0.1) }
            .run()
        await server.holdArrived.get()
        running.requestCancellation()
        let result = await running.settledResult()
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error as? FuturesError == .cancelled)
        await server.holdClosedByClient.get()
        #expect(server.requestedPaths == ["/ok", "/hold"])
    }

    /// The blog post's whole story: three nested `dataTask` callbacks become one flat chain.
    @Test func theBlogsCallbackHellBecomesAChainPrintingFirstSecondFinally() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let session = makeLoopbackSession()
        let url = server.url("/ok")
        let printed = Recorder<String>()
        let done = Promise<Void, Never>()
        let chain = session.dataDeferred(from: url).flatMap { _ in
            printed.append("first")
            return session.dataDeferred(from: url)
        }.flatMap { _ in
            printed.append("second")
            return session.dataDeferred(from: url)
        }
        #expect(server.requestedPaths.isEmpty)  // only described so far
        chain.execute { _ in
            printed.append("finally")
            done.success(())
        }
        await done.future.get()
        #expect(printed.values == ["first", "second", "finally"])
        #expect(server.requestedPaths == ["/ok", "/ok", "/ok"])
    }
}

enum CrawlError: Error, Equatable {
    case offline
    case timedOut
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension Future {
    /// Waits for the result without throwing (test helper).
    func settledResult() async -> Result<T, E> {
        do {
            return .success(try await get())
        } catch {
            return .failure(error)
        }
    }
}
