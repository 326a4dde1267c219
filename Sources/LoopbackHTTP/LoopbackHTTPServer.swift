import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for the tour and the tests: it never leaves this machine.
///
/// One thread accepts; each connection gets a thread that reads one request, asks the handler for a
/// ``Reply`` and answers it (`Connection: close`). A reply may come after a delay; while it waits, the
/// connection thread watches the socket, so a client that hangs up first (a cancelled request) is noticed
/// at once and reported to ``init(handler:onAbandoned:)``'s `onAbandoned`. Every wait is bounded: `stop()`
/// ends the server within 100 ms, and no reply is held longer than ``Reply/longestDelay``.
///
/// This target is not a product of the package: the `Futures` library has no dependencies, and this
/// server only serves the tour and the test suite.
public final class LoopbackHTTPServer: Sendable {
    /// A request as the handler sees it.
    public struct Request: Sendable {
        /// `GET`, `POST`, …
        public let method: String
        /// The path without the query, e.g. `/api/posts`.
        public let path: String
        /// The query's items, e.g. `["user": "ada"]` for `?user=ada`.
        public let query: [String: String]
        /// Header fields, names lower-cased.
        public let headers: [String: String]
        /// The body (read according to `Content-Length`).
        public let body: String
    }

    /// What the server answers, and when.
    public struct Reply: Sendable {
        /// The longest a reply is held back: a delay beyond it is cut to it.
        public static let longestDelay: Duration = .seconds(1_800)

        /// The HTTP status code.
        public var status: Int
        /// The body, sent as UTF-8.
        public var body: String
        /// The `Content-Type` header.
        public var contentType: String
        /// How long the server waits before answering (the client may hang up meanwhile).
        public var delay: Duration

        /// A reply of `status` with `body`, sent after `delay`.
        public init(
            status: Int = 200,
            body: String = "",
            contentType: String = "text/plain; charset=utf-8",
            delay: Duration = .zero
        ) {
            self.status = status
            self.body = body
            self.contentType = contentType
            self.delay = delay
        }

        /// A JSON reply: `body` is sent with `Content-Type: application/json`.
        public static func json(_ body: String, status: Int = 200, delay: Duration = .zero) -> Reply {
            Reply(status: status, body: body, contentType: "application/json", delay: delay)
        }

        /// A reply that never comes: the request is held until the client hangs up (or
        /// ``longestDelay`` passes, or the server stops).
        public static let hold = Reply(status: 504, body: "held", delay: longestDelay)
    }

    /// The port the server listens on, on 127.0.0.1.
    public let port: UInt16
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    private let handler: @Sendable (Request) -> Reply
    private let onAbandoned: @Sendable (Request) -> Void
    /// Behind an `NSLock` rather than a `Mutex`: connection threads update it at once, and a contended
    /// `Mutex` on Linux hands ownership over through a futex that ThreadSanitizer cannot see (it reported
    /// false races here).
    private let counters = LockedCounters()

    private struct Counters {
        var requests = 0
        var abandoned = 0
        var paths: [String] = []
    }

    /// The counters and their lock.
    private final class LockedCounters: @unchecked Sendable {
        // `@unchecked Sendable`: `value` is only touched while `lock` is held.
        private let lock = NSLock()
        private var value = Counters()

        func withLock<R>(_ body: (inout Counters) -> R) -> R {
            lock.withLock { body(&value) }
        }
    }

    /// Starts a server on an ephemeral port of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - handler: decides the reply to each request; runs on the connection's own thread.
    ///   - onAbandoned: called (on the connection's thread) when a client hangs up before its reply was
    ///     sent, i.e. the request was cancelled in flight.
    /// - Throws: `POSIXError` when no socket can be bound.
    public init(
        handler: @escaping @Sendable (Request) -> Reply,
        onAbandoned: @escaping @Sendable (Request) -> Void = { _ in }
    ) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.listener = fd
        self.port = Self.localPort(of: fd)
        self.handler = handler
        self.onAbandoned = onAbandoned
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// The URL of `path` (which may carry a query) on this server.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// How many requests the server has read so far.
    public var requestCount: Int { counters.withLock { $0.requests } }

    /// How many clients hung up before their reply was sent.
    public var abandonedCount: Int { counters.withLock { $0.abandoned } }

    /// The paths requested so far, in arrival order.
    public var requestedPaths: [String] { counters.withLock { $0.paths } }

    /// Stops accepting and ends held replies within 100 ms.
    public func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
    }

    /// A port on 127.0.0.1 where nothing listens (bound, read, and released again).
    public static func closedPort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopbackAddress(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let port = localPort(of: fd)
        close(fd)
        return port
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func localPort(of fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    private var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    /// Waits up to `milliseconds` for `fd` to become readable (or hung up); false on timeout.
    private static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    private func acceptLoop() {
        while !isStopped {
            guard Self.waitReadable(listener, milliseconds: 100) else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread.detachNewThread { [self] in serve(connection) }
        }
        close(listener)
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        counters.withLock {
            $0.requests += 1
            $0.paths.append(request.path)
        }
        let reply = handler(request)
        if reply.delay > .zero, !waitOrNoticeHangUp(connection, for: min(reply.delay, Reply.longestDelay)) {
            counters.withLock { $0.abandoned += 1 }
            onAbandoned(request)
            return
        }
        Self.write(reply, to: connection)
    }

    /// Waits `delay` on the connection; false when the client hung up meanwhile (or the server stopped).
    private func waitOrNoticeHangUp(_ connection: Int32, for delay: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: delay)
        while !isStopped {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return true }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(min(50, seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1))
            if Self.waitReadable(connection, milliseconds: milliseconds) {
                var byte: UInt8 = 0
                if recv(connection, &byte, 1, 0) <= 0 { return false }
            }
        }
        return false
    }

    /// Waits for `connection` to become readable: in 100 ms slices until the server stops, for at most
    /// ``requestPatience`` (a client on a loaded machine may take seconds to send its request; a read that
    /// gave up after 5 s answered it with an empty reply).
    private func awaitRequestBytes(_ connection: Int32) -> Bool {
        var waited = 0
        while !isStopped && waited < Self.requestPatience {
            if Self.waitReadable(connection, milliseconds: 100) { return true }
            waited += 100
        }
        return false
    }

    /// How long a connection may take to send its request, in milliseconds.
    private static let requestPatience = 120_000

    private func readRequest(_ connection: Int32) -> Request? {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headerEnd: Int?
        while headerEnd == nil {
            guard awaitRequestBytes(connection) else { return nil }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
            headerEnd = received.headerEnd
        }
        guard let headerEnd else { return nil }
        let lines = String(decoding: received[..<headerEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(received[(headerEnd + 4)...])
        let expected = Int(headers["content-length"] ?? "") ?? 0
        while body.count < expected {
            guard awaitRequestBytes(connection) else { return nil }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            body.append(contentsOf: buffer[0..<count])
        }
        let target = String(requestLine[1])
        let pathAndQuery = target.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        if pathAndQuery.count == 2 {
            for item in pathAndQuery[1].split(separator: "&") {
                let pair = item.split(separator: "=", maxSplits: 1)
                let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
                let value = pair.count == 2 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
                query[name] = value
            }
        }
        return Request(
            method: String(requestLine[0]),
            path: pathAndQuery.first.map(String.init) ?? "/",
            query: query,
            headers: headers,
            body: String(decoding: body.prefix(expected), as: UTF8.self)
        )
    }

    private static func write(_ reply: Reply, to connection: Int32) {
        let body = Array(reply.body.utf8)
        let head =
            "HTTP/1.1 \(reply.status) \(reason(reply.status))\r\nContent-Type: \(reply.contentType)\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, noSignal) }
            guard count > 0 else { return }
            sent += count
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}

#if os(Linux)
    private let noSignal = Int32(MSG_NOSIGNAL)
#else
    private let noSignal: Int32 = 0
#endif

extension [UInt8] {
    /// The index of the `\r\n\r\n` that ends the header, if it has arrived.
    fileprivate var headerEnd: Int? {
        guard count >= 4 else { return nil }
        for index in 0...(count - 4)
        where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return index
        }
        return nil
    }
}
