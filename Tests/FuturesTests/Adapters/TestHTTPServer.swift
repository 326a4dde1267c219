import Foundation
import Synchronization

@testable import Futures

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the URLSession tests: one thread accepts, one thread per
/// connection answers. Every wait is bounded (poll with a timeout), and `stop()` ends it within 100 ms.
///
/// Routes: `/ok` → 200 `hello`; `/missing` → 404; `/hold` → no answer until the client goes away
/// (it completes ``holdArrived`` when the request has been read, so a test knows it is in flight).
final class TestHTTPServer: Sendable {
    let port: UInt16
    /// Completed when a `/hold` request has been received.
    let holdArrived = Future<Void, Never>()
    /// Completed when the `/hold` client closed its connection (the request was cancelled).
    let holdClosedByClient = Future<Void, Never>()
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    private let paths = Recorder<String>()

    /// The paths requested so far, in arrival order.
    var requestedPaths: [String] { paths.values }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.listener = fd
        self.port = Self.localPort(of: fd)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// A port on 127.0.0.1 where nothing listens (bound, read, and released again).
    static func closedPort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let port = localPort(of: fd)
        close(fd)
        return port
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
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
            Thread.detachNewThread { [self] in handle(connection) }
        }
        close(listener)
    }

    private func handle(_ connection: Int32) {
        defer { close(connection) }
        guard let path = readRequestPath(connection) else { return }
        paths.append(path)
        switch path {
        case "/ok":
            respond(connection, status: "200 OK", body: "hello")
        case "/hold":
            holdArrived.complete(.success(()))
            // Hold the answer until the client hangs up (bounded: 10 s, or until the server stops).
            var waited = 0
            while !isStopped && waited < 10_000 {
                if Self.waitReadable(connection, milliseconds: 50) {
                    var byte: UInt8 = 0
                    if recv(connection, &byte, 1, 0) <= 0 {
                        holdClosedByClient.complete(.success(()))
                        return
                    }
                }
                waited += 50
            }
        default:
            respond(connection, status: "404 Not Found", body: "not found")
        }
    }

    private func readRequestPath(_ connection: Int32) -> String? {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !received.containsHeaderEnd {
            guard Self.waitReadable(connection, milliseconds: 5_000) else { return nil }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        let requestLine = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = requestLine.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    private func respond(_ connection: Int32, status: String, body: String) {
        let text = "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, noSignal) }
            guard count > 0 else { return }
            sent += count
        }
    }
}

#if os(Linux)
    private let noSignal = Int32(MSG_NOSIGNAL)
#else
    private let noSignal: Int32 = 0
#endif

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4)
        where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
