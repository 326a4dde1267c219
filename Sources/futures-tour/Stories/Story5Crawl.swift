import Foundation
import Futures
import Synchronization

/// A crawler a new user would write: pages are discovered on the fly, so a shared `ConcurrencyLimiter`
/// keeps 8 requests in flight; each request has a timeout (which cancels the late request) and is retried
/// when the site says it is temporarily unavailable. Then a second crawl is cancelled while its requests are
/// in flight, and the site sees them go.
func storyCrawl(_ client: SiteClient) async -> [StoryRow] {
    chapter("5. Crawling a generated site: a limiter, timeouts, retries")
    let before = client.site.server.requestCount
    let clock = Stopwatch()
    let limiter = ConcurrencyLimiter(maxConcurrent: 8)
    let crawl = CrawlState(total: TourSite.pageCount)

    @Sendable func fetch(_ page: Int) -> Future<Data, SiteError> {
        Future<Data, SiteError>.retry(
            3, backoff: .constant(.milliseconds(20)), while: { $0.isTransient }, failingWith: .cancelled
        ) {
            crawl.attempted()
            return client.send("/site/\(page)").timeout(after: .milliseconds(400), failingWith: .timedOut)
        }
    }
    @Sendable func visit(_ page: Int) {
        guard crawl.discover(page) else { return }
        let fetched = limiter.submit(failingWith: SiteError.cancelled) { () -> Future<Data, SiteError> in
            crawl.started(running: limiter.runningCount)
            return fetch(page)
        }
        fetched.onComplete(immediateExecutionContext) { (result: Result<Data, SiteError>) in
            switch result {
            case .success(let html):
                for link in links(in: html) { visit(link) }
                crawl.finished(page, .success(()), queued: limiter.queuedCount)
            case .failure(let error):
                crawl.finished(page, .failure(error), queued: limiter.queuedCount)
            }
        }
    }
    visit(0)
    let report = await crawl.done.future.get()
    crawl.endProgressLine()

    say(
        "crawled \(report.pages) pages: \(report.succeeded) fetched, \(report.timedOut) timed out, \(report.failed) failed"
    )
    say("retries: \(report.attempts - report.pages) (pages answering 503 once were fetched on the next attempt)")
    say("at most \(report.maxRunning) requests in flight (limit 8); the limiter never idled while pages waited")
    let slowAbandoned = await client.site.abandoned(report.timedOut, startingWith: "/site/")
        .timeout(after: .seconds(5)).outcome()
    if case .success(let paths) = slowAbandoned {
        say(
            "each timeout cancelled its request: the site saw \(paths.count) clients hang up (\(paths.joined(separator: ", ")))"
        )
    } else {
        say("the site did not see the timed-out requests go (cancellation did not reach them)")
    }
    let crawlRow = StoryRow(
        story: "crawl, limiter of 8", requests: client.site.server.requestCount - before,
        milliseconds: clock.milliseconds,
        outcome: "\(report.succeeded)/\(report.pages) pages, \(report.timedOut) timeouts")

    return [crawlRow, await storyCancelInFlight(client)]
}

/// Cancelling a crawl: the queued pages never start, and the running requests stop at the site.
private func storyCancelInFlight(_ client: SiteClient) async -> StoryRow {
    chapter("6. Cancelling what is in flight")
    let before = client.site.server.requestCount
    let clock = Stopwatch()
    let limiter = ConcurrencyLimiter(maxConcurrent: 4)
    let pages = (1...10).map { page in
        limiter.submit(failingWith: SiteError.cancelled) { client.send("/archive/\(page)") }
    }
    _ = await client.site.arrived(4, startingWith: "/archive/").get()
    say("10 archive pages submitted: \(limiter.runningCount) in flight at the site, \(limiter.queuedCount) queued")
    let cancelled = Stopwatch()
    limiter.cancelAll()
    var outcomes: [String: Int] = [:]
    for page in pages {
        let outcome = await page.outcome()
        let key = if case .failure(let error) = outcome { "\(error)" } else { "fetched" }
        outcomes[key, default: 0] += 1
    }
    let gone = await client.site.abandoned(4, startingWith: "/archive/").timeout(after: .seconds(5)).outcome()
    say(
        "cancelAll(): \(outcomes.map { "\($1) \($0)" }.sorted().joined(separator: ", ")) after \(cancelled.milliseconds) ms (each page takes 30 s)"
    )
    if case .success(let paths) = gone {
        say("the site saw \(paths.count) clients hang up; the other \(10 - paths.count) requests were never sent")
    } else {
        say("the site did not see the requests go (cancellation did not reach them)")
    }
    return StoryRow(
        story: "cancel a crawl in flight", requests: client.site.server.requestCount - before,
        milliseconds: clock.milliseconds, outcome: "4 stopped at the site, 6 never sent")
}

/// The links of a page: every `href="/site/N"`.
private func links(in html: Data) -> [Int] {
    String(decoding: html, as: UTF8.self).components(separatedBy: "href=\"/site/").dropFirst().compactMap {
        Int($0.prefix { $0.isNumber })
    }
}

/// What the crawl has seen, and the live progress line.
private final class CrawlState: Sendable {
    struct Report: Sendable {
        var pages = 0
        var succeeded = 0
        var timedOut = 0
        var failed = 0
        var attempts = 0
        var maxRunning = 0
    }
    private struct State {
        var seen: Set<Int> = []
        var outstanding = 0
        var report = Report()
    }
    let total: Int
    let done = Promise<Report, Never>()
    private let state = Mutex(State())
    private let interactive = isatty(STDOUT_FILENO) != 0

    init(total: Int) { self.total = total }

    /// Records `page` as discovered; false if it was seen before.
    func discover(_ page: Int) -> Bool {
        state.withLock { state in
            guard state.seen.insert(page).inserted else { return false }
            state.outstanding += 1
            return true
        }
    }

    func attempted() { state.withLock { $0.report.attempts += 1 } }

    func started(running: Int) {
        state.withLock { $0.report.maxRunning = max($0.report.maxRunning, running) }
    }

    func finished(_ page: Int, _ result: Result<Void, SiteError>, queued: Int) {
        let (report, last) = state.withLock { state -> (Report, Bool) in
            state.report.pages += 1
            switch result {
            case .success: state.report.succeeded += 1
            case .failure(.timedOut): state.report.timedOut += 1
            case .failure: state.report.failed += 1
            }
            state.outstanding -= 1
            return (state.report, state.outstanding == 0)
        }
        showProgress(report, queued: queued, last: last)
        if last { done.success(report) }
    }

    func endProgressLine() {
        if interactive { print("") }
    }

    private func showProgress(_ report: Report, queued: Int, last: Bool) {
        let line = "  crawled \(report.pages) of \(total) pages · \(queued) queued · \(report.timedOut) timed out"
        if interactive {
            FileHandle.standardOutput.write(Data("\r\(line)   ".utf8))
        } else if report.pages % 50 == 0 || last {
            print(line)
        }
    }
}
