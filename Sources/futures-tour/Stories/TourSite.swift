import Foundation
import Futures
import LoopbackHTTP
import Synchronization

/// The web site the tour's stories talk to: an HTTP server of the tour's own on 127.0.0.1.
///
/// - `POST /login` (`user=…&password=…`) → `{"token": …}`, or 401 for a wrong password;
/// - `GET /posts?token=…` → the user's posts, or 401 without a valid token;
/// - `GET /users/1`, `/users/1/posts`, `/posts/N/comments` → the blog's three nested requests;
/// - `DELETE /comments/N`, `GET /profiles/N` → Bolts' work in series and in parallel (each takes 40 ms);
/// - `GET /news?after=N` → the headline after `N` (204 when there is none yet);
/// - `GET /site/N` → page `N` of a generated site of ``pageCount`` pages, linking to 3 others; a few pages
///   are slow (they answer after 1.5 s) and a few are flaky (503 on the first request, fine after);
/// - `GET /archive/N` → pages that take 30 s, for the story about cancelling work in flight.
final class TourSite: Sendable {
    static let pageCount = 150
    static let headlines = [
        "Futures reach 1.0", "Stack-safe at any depth", "Cancellation that reaches the work",
        "Bolts tasks on the same core", "Streams with replay", "Swift 6, strict concurrency",
    ]

    let server: LoopbackHTTPServer
    private let arrived = PathLog()
    private let abandoned = PathLog()

    init() throws {
        let flakyServed = FlakyPages()
        let abandoned = abandoned
        let arrived = arrived
        server = try LoopbackHTTPServer(
            handler: { request in
                arrived.record(request.path)
                return Self.reply(to: request, flaky: flakyServed)
            },
            onAbandoned: { request in abandoned.record(request.path) }
        )
    }

    func url(_ path: String) -> URL { server.url(path) }

    /// Completes when `count` requests for paths starting with `prefix` have arrived.
    func arrived(_ count: Int, startingWith prefix: String) -> Future<[String], Never> {
        arrived.when(count, startingWith: prefix)
    }

    /// Completes when `count` requests for paths starting with `prefix` were abandoned by their clients
    /// (cancelled in flight).
    func abandoned(_ count: Int, startingWith prefix: String) -> Future<[String], Never> {
        abandoned.when(count, startingWith: prefix)
    }

    static func isSlow(_ page: Int) -> Bool { page % 37 == 11 }
    static func isFlaky(_ page: Int) -> Bool { page % 13 == 4 }
    static func links(of page: Int) -> [Int] {
        [(page * 3 + 1) % pageCount, (page * 7 + 2) % pageCount, (page + 1) % pageCount]
    }

    private static func reply(to request: LoopbackHTTPServer.Request, flaky: FlakyPages) -> LoopbackHTTPServer.Reply {
        let parts = request.path.split(separator: "/").map(String.init)
        let route = "\(request.method) /" + parts.map { Int($0) == nil ? $0 : "#" }.joined(separator: "/")
        let number = parts.compactMap { Int($0) }.first ?? -1
        switch route {
        case "POST /login":
            let form = Dictionary(
                request.body.split(separator: "&").map { item -> (String, String) in
                    let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
                    return (pair[0], pair.count > 1 ? pair[1] : "")
                },
                uniquingKeysWith: { first, _ in first })
            guard form["user"] == "ada", form["password"] == "lovelace" else {
                return .json(#"{"error": "wrong user or password"}"#, status: 401, delay: .milliseconds(30))
            }
            return .json(#"{"token": "t-ada-1815"}"#, delay: .milliseconds(30))
        case "GET /posts":
            guard request.query["token"] == "t-ada-1815" else { return .json("[]", status: 401) }
            return .json(
                #"[{"id": 1, "title": "Notes on the Analytical Engine"}, {"id": 2, "title": "On Bernoulli numbers"}]"#,
                delay: .milliseconds(30))
        case "GET /users/#":
            return .json(#"{"id": \#(number), "name": "Ada"}"#, delay: .milliseconds(20))
        case "GET /users/#/posts":
            return .json(#"[{"id": 7, "title": "Note G"}]"#, delay: .milliseconds(20))
        case "GET /posts/#/comments":
            return .json(
                #"[{"id": 70, "text": "The first program!"}, {"id": 71, "text": "Brilliant."}]"#,
                delay: .milliseconds(20))
        case "DELETE /comments/#":
            return .init(status: 204, delay: .milliseconds(40))
        case "GET /profiles/#":
            return .json(#"{"id": \#(number), "name": "reader \#(number)"}"#, delay: .milliseconds(40))
        case "GET /news":
            let after = Int(request.query["after"] ?? "") ?? -1
            guard after + 1 < headlines.count else { return .init(status: 204) }
            return .init(body: headlines[after + 1], delay: .milliseconds(15))
        case "GET /site/#":
            let page = number
            guard (0..<pageCount).contains(page) else { return .init(status: 404) }
            if isFlaky(page) && flaky.firstRequest(page) { return .init(status: 503, delay: .milliseconds(10)) }
            let body = links(of: page).map { "<a href=\"/site/\($0)\">page \($0)</a>" }.joined(separator: "\n")
            let delay: Duration = isSlow(page) ? .milliseconds(1_500) : .milliseconds(15 + page % 4 * 10)
            return .init(body: "<h1>Page \(page)</h1>\n\(body)", contentType: "text/html", delay: delay)
        case "GET /archive/#":
            return .init(body: "old news", delay: .seconds(30))
        default:
            return .init(status: 404, body: "not found")
        }
    }
}

/// Which flaky pages have been asked for once already.
private final class FlakyPages: Sendable {
    private let seen = Mutex<Set<Int>>([])

    /// True the first time `page` is asked for.
    func firstRequest(_ page: Int) -> Bool { seen.withLock { $0.insert(page).inserted } }
}

/// Paths seen by the server (arrived, or abandoned by their clients), and futures of "N of them with a prefix".
private final class PathLog: Sendable {
    private struct State {
        var paths: [String] = []
        var waiters: [(prefix: String, count: Int, promise: Promise<[String], Never>)] = []
    }
    private let state = Mutex(State())

    func record(_ path: String) {
        let due = state.withLock { state -> [(Promise<[String], Never>, [String])] in
            state.paths.append(path)
            let paths = state.paths
            var due: [(Promise<[String], Never>, [String])] = []
            state.waiters.removeAll { waiter in
                let matching = paths.filter { $0.hasPrefix(waiter.prefix) }
                guard matching.count >= waiter.count else { return false }
                due.append((waiter.promise, matching))
                return true
            }
            return due
        }
        for (promise, paths) in due { promise.success(paths) }
    }

    /// A future that completes when `count` paths starting with `prefix` have been recorded.
    func when(_ count: Int, startingWith prefix: String) -> Future<[String], Never> {
        let promise = Promise<[String], Never>()
        let ready = state.withLock { state -> [String]? in
            let matching = state.paths.filter { $0.hasPrefix(prefix) }
            if matching.count >= count { return matching }
            state.waiters.append((prefix, count, promise))
            return nil
        }
        if let ready { promise.success(ready) }
        return promise.future
    }
}
