import Dispatch
import Futures
import Synchronization

/// Chapter: a shared concurrency limiter, settled results, outcomes as they arrive, unobserved failures.
func tourLimiter() async {
    print("\n== ConcurrencyLimiter, settled(), traverseAsCompleted, unobserved failures ==")

    // A crawler: links are discovered while pages load, and every fetch shares the same 2 slots.
    let site: [String: [String]] = [
        "/": ["/docs", "/blog", "/about"],
        "/docs": ["/docs/intro", "/docs/api"],
        "/blog": ["/blog/1", "/blog/2", "/docs"],
        "/docs/api": ["/docs/api/future", "/docs/api/promise"],
    ]
    let limiter = ConcurrencyLimiter(maxConcurrent: 2)
    let crawl = Crawl(limiter: limiter, site: site)
    let pages = await crawl.run(from: "/")
    print("crawled \(pages.count) pages, never more than 2 fetches at once:", crawl.peak <= 2)
    print("pages:", pages.sorted().joined(separator: " "))

    // Priorities, and cancelling work that has not started.
    let single = ConcurrencyLimiter(maxConcurrent: 1)
    let gate = Promise<Void, Never>()
    let order = Mutex<[String]>([])
    func job(_ name: String, _ priority: ConcurrencyLimiter.Priority) -> Future<String, any Error> {
        single.submit(priority: priority) {
            order.withLock { $0.append(name) }
            return Future<String, Never>(value: name)
        }
    }
    _ = single.submit { gate.future }  // holds the only slot
    let report = job("report", .low)
    let thumbnail = job("thumbnail", .normal)
    let login = job("login", .high)
    print("running \(single.runningCount), queued \(single.queuedCount)")
    thumbnail.requestCancellation()
    print("thumbnail cancelled while queued:", await thumbnail.settledResult())
    gate.success(())
    _ = await (report.settledResult(), login.settledResult())
    print("start order (high priority first):", order.withLock { $0 })

    // settled(): every outcome, in list order, and never a failure.
    let checks: [Future<Int, MirrorError>] = [Future(value: 200), Future(error: .notFound), Future(value: 204)]
    for outcome in await checks.settled().get() {
        print("  settled:", outcome)
    }

    // traverseAsCompleted: each outcome as soon as it is there, as a stream.
    let replies = (0..<3).map { _ in Promise<String, MirrorError>() }
    let arrivals = [0, 1, 2].traverseAsCompleted(maxConcurrent: 3) { replies[$0].future }
    replies[2].success("mirror C")
    replies[0].failure(.offline)
    replies[1].success("mirror B")
    do {
        for try await (index, result) in arrivals {
            print("  arrived: #\(index)", result)
        }
    } catch {
        print("unexpected:", error)
    }

    // A failure nobody looked at (no callback, no get(), nothing derived) is reported when its future
    // goes away: FuturesDiagnostics.unobservedFailures is .report by default.
    FuturesDiagnostics.withHandler({ print("  reported:", $0) }) {
        let forgotten = Promise<Int, MirrorError>()
        forgotten.failure(.offline)
        let handled = Promise<Int, MirrorError>()
        handled.future.onFailure(immediateExecutionContext) { print("  handled:", $0) }
        handled.failure(.notFound)
    }
}

/// Crawls a made-up site through a limiter; each fetch takes a millisecond on a global queue.
final class Crawl: Sendable {
    let limiter: ConcurrencyLimiter
    let site: [String: [String]]
    private let state = Mutex((seen: Set<String>(), outstanding: 0, inFlight: 0, peak: 0))
    private let done = Promise<Set<String>, Never>()

    init(limiter: ConcurrencyLimiter, site: [String: [String]]) {
        self.limiter = limiter
        self.site = site
    }

    var peak: Int { state.withLock { $0.peak } }

    func run(from root: String) async -> Set<String> {
        visit(root)
        return await done.future.get()
    }

    private func visit(_ page: String) {
        let isNew = state.withLock { state -> Bool in
            guard state.seen.insert(page).inserted else { return false }
            state.outstanding += 1
            return true
        }
        guard isNew else { return }
        limiter.submit { self.fetch(page) }.onSuccess(immediateExecutionContext) { links in
            for link in links { self.visit(link) }
            let finished = self.state.withLock { state -> Set<String>? in
                state.outstanding -= 1
                return state.outstanding == 0 ? state.seen : nil
            }
            if let finished { self.done.success(finished) }
        }
    }

    private func fetch(_ page: String) -> Future<[String], Never> {
        state.withLock { state in
            state.inFlight += 1
            state.peak = max(state.peak, state.inFlight)
        }
        let promise = Promise<[String], Never>()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) {
            self.state.withLock { $0.inFlight -= 1 }
            promise.success(self.site[page] ?? [])
        }
        return promise.future
    }
}
