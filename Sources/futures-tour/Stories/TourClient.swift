import Foundation
import Futures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What can go wrong when the tour talks to its site, in words a reader wants to see.
enum SiteError: Error, Equatable, CustomStringConvertible {
    case offline
    case unauthorized
    case unavailable
    case notFound
    case status(Int)
    case badData
    case timedOut
    case cancelled

    var description: String {
        switch self {
        case .offline: "the site is offline"
        case .unauthorized: "wrong user or password"
        case .unavailable: "the page is temporarily unavailable (503)"
        case .notFound: "no such page (404)"
        case .status(let code): "unexpected HTTP status \(code)"
        case .badData: "the answer could not be read"
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        }
    }

    /// Whether trying again may help.
    var isTransient: Bool { self == .unavailable }

    /// The transport's error, classified.
    static func classify(_ error: any Error) -> SiteError {
        if let futuresError = error as? FuturesError, futuresError == .cancelled { return .cancelled }
        return .offline
    }
}

/// The tour's HTTP client: every request is a `Future` (or a lazy `Deferred`) over `URLSession`.
struct SiteClient: Sendable {
    let site: TourSite
    let session: URLSession

    init(site: TourSite) {
        self.site = site
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        configuration.httpMaximumConnectionsPerHost = 16
        session = URLSession(configuration: configuration)
    }

    func request(_ method: String, _ path: String, body: String? = nil) -> URLRequest {
        var request = URLRequest(url: site.url(path))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    /// Sends a request now; succeeds with the body for a 2xx status, fails with a `SiteError` otherwise.
    /// `requestCancellation()` on the result cancels the request (the classify step passes it upstream).
    func send(_ path: String, method: String = "GET", body: String? = nil) -> Future<Data, SiteError> {
        session.dataFuture(for: request(method, path, body: body))
            .mapError(SiteError.classify)
            .flatMap(immediateExecutionContext) { data, response in Self.check(data, response) }
    }

    /// The same request as a lazy `Deferred`: nothing is sent until it is run, and each run sends it again.
    func deferred(_ path: String) -> Deferred<Data, SiteError> {
        session.dataDeferred(for: request("GET", path))
            .mapError(SiteError.classify)
            .flatMap { data, response in
                Deferred(starting: { Self.check(data, response) })
            }
    }

    /// Decodes a JSON body.
    static func decode<T: Decodable & Sendable>(_ type: T.Type, _ data: Data) -> Future<T, SiteError> {
        guard let value = try? JSONDecoder().decode(type, from: data) else { return Future(error: .badData) }
        return Future(value: value)
    }

    private static func check(_ data: Data, _ response: URLResponse) -> Future<Data, SiteError> {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 200..<300: return Future(value: data)
        case 401: return Future(error: .unauthorized)
        case 404: return Future(error: .notFound)
        case 503: return Future(error: .unavailable)
        default: return Future(error: .status(status))
        }
    }
}

/// Elapsed wall time, for the summary.
struct Stopwatch {
    private let start = ContinuousClock.now

    var elapsed: Duration { ContinuousClock.now - start }

    var milliseconds: Int {
        let (seconds, attoseconds) = elapsed.components
        return Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

/// One row of the summary table printed at the end of the tour.
struct StoryRow: Sendable {
    let story: String
    let requests: Int
    let milliseconds: Int
    let outcome: String
}
