import Foundation
import LoopbackHTTP

@testable import Futures

/// The URLSession tests' server: the package's `LoopbackHTTPServer` on 127.0.0.1 with three routes.
///
/// Routes: `/ok` → 200 `hello`; `/bytes` → 200 with a body of ``bytesCount`` bytes; `/hold` → no answer until the client goes away (it completes
/// ``holdArrived`` when the request has been read, so a test knows it is in flight, and
/// ``holdClosedByClient`` when the client hung up); anything else → 404 `not found`.
final class TestHTTPServer: Sendable {
    /// Completed when a `/hold` request has been received.
    let holdArrived = Future<Void, Never>()
    /// Completed when the `/hold` client closed its connection (the request was cancelled).
    let holdClosedByClient = Future<Void, Never>()
    private let server: LoopbackHTTPServer
    /// The body size of `/bytes`: large enough to arrive in several reads.
    static let bytesCount = 300_000

    init() throws {
        let arrived = holdArrived
        let closed = holdClosedByClient
        server = try LoopbackHTTPServer(
            handler: { request in
                switch request.path {
                case "/ok":
                    return .init(body: "hello")
                case "/bytes":
                    return .init(body: String(repeating: "x", count: Self.bytesCount))
                case "/hold":
                    arrived.complete(.success(()))
                    return .hold
                default:
                    return .init(status: 404, body: "not found")
                }
            },
            onAbandoned: { request in
                if request.path == "/hold" { closed.complete(.success(())) }
            }
        )
    }

    var port: UInt16 { server.port }

    /// The paths requested so far, in arrival order.
    var requestedPaths: [String] { server.requestedPaths }

    /// A port on 127.0.0.1 where nothing listens.
    static func closedPort() -> UInt16 { LoopbackHTTPServer.closedPort() }

    func url(_ path: String) -> URL { server.url(path) }

    func stop() { server.stop() }
}
