#if ServiceLifecycle && Metrics && Tracing
    import Clocks
    import Dispatch
    import Foundation
    import Futures
    import FuturesMetrics
    import FuturesServiceLifecycle
    import FuturesTracing
    import InMemoryTracing
    import Logging
    import LoopbackHTTP
    import MetricsTestKit
    import ServiceLifecycle
    import Synchronization
    import Testing
    import Tracing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    // A job runner as a user writes it — a `ConcurrencyLimiter(maxConcurrent: 8)` in front of an
    // HTTP backend, `Future.retry` with back-off, `submit(timeout:)`, `InFlightFutures`, `LimiterMetrics`,
    // `withFutureSpan`, swift-log — run under a `ServiceGroup` with a `DrainingService`, against a loopback
    // backend that is quick, flaky, hung, or answers late whatever the client does. SIGTERM arrives under
    // load. Nested in `DrainingServiceTests`, whose `.serialized` keeps it apart from the other SIGTERM
    // tests of the process (a group could take another's signal).
    extension DrainingServiceTests {
        @Suite("End to end: a job runner shut down by SIGTERM under load")
        struct EndToEnd {
            /// The drain's deadline, on a test clock: it passes when the test says, once everything that
            /// honours cancellation has ended (so that the leftovers are exactly the work that ignores it).
            static let deadline: Duration = .seconds(10)

            @Test("Every job has an outcome, every span ends, the gauges return to 0, the log names each leftover")
            func sigtermUnderLoad() async throws {
                let ledger = Ledger()
                let backend = try LoopbackBackend(ledger: ledger)
                defer { backend.stop() }
                let metrics = TestMetrics()
                let tracer = InMemoryTracer()
                let handler = CapturingLogHandler()
                let logger = Logger(label: "futures.tests.jobs") { _ in handler }
                let runner = JobRunner(
                    backend: backend, metrics: metrics, tracer: tracer, ledger: ledger, logger: logger)

                // The test's own probe in the registry: asked when the drain has closed the limiter and the
                // registry (after it set its deadline); it then ends, as cooperative work does.
                let probe = CooperativeWork()
                let probed = runner.inFlight.add(probe.future)
                probed.onComplete(immediateExecutionContext) { _ in ledger.add("probe.done") }
                // And work of the app's own in the registry alone (no limiter) that ignores the request: the
                // drain gives up on it too, and ends the future the registry returned.
                let holdout = StubbornWork()
                let holdoutLine: UInt = #line + 1
                let heldOut = runner.inFlight.add(holdout.future)

                let clock = TestClock()
                let drain = DrainingService(
                    limiters: [runner.limiter], inFlight: [runner.inFlight], deadline: Self.deadline, clock: clock,
                    leftovers: .fail, logger: logger)
                let producer = JobProducer(runner: runner)
                let group = ServiceGroup(
                    configuration: .init(
                        services: [producer, drain], gracefulShutdownSignals: [.sigterm], logger: quietLogger))
                let groupRun = Task { try await group.run() }

                // Under load: every backend has been reached, the short deadlines have run out their retries,
                // the flaky jobs succeed after their 503s, and the quick jobs keep coming.
                await producer.loaded.future.get()  // the group traps SIGTERM from here on
                await ledger.until { count in
                    count["request.stubborn"] >= JobProducer.wave[.stubborn]!
                        && count["request.hung"] >= JobProducer.wave[.hung]!
                        && count["job.done.hungWithDeadline"] == JobProducer.wave[.hungWithDeadline]!
                        && count["job.success.flaky"] >= 1 && count["request.flaky.503"] >= 2
                        && count["job.success.quick"] >= 8
                }
                kill(getpid(), SIGTERM)

                // The drain began (the limiter is closed); wait until all that honours cancellation has ended
                // and its slot is free, then let the deadline pass.
                await probe.asked.future.get()
                await holdout.asked.future.get()
                await ledger.until { count in
                    JobKind.allCases.allSatisfy {
                        $0 == .stubborn || count["job.submitted.\($0)"] == count["job.done.\($0)"]
                    }
                        && count["limiter.running"] == count["attempt.started.stubborn"]
                        && count["probe.done"] == 1
                }
                await clock.advance(by: Self.deadline + .nanoseconds(1))
                try await groupRun.value

                // 1. Every submitted job's future has an outcome, the one its backend and the shutdown say.
                let jobs = runner.jobs
                let stubborn = try #require(JobProducer.wave[.stubborn])
                #expect(jobs.count > JobProducer.wave.values.reduce(0, +) + JobProducer.lateJobs)
                #expect(jobs.allSatisfy { $0.future.isCompleted })
                for job in jobs {
                    let outcome = job.outcome
                    switch job.kind {
                    case .quick, .flaky:
                        #expect(outcome == "success" || outcome == "cancelled", "\(job)")
                    case .hung, .late:
                        #expect(outcome == "cancelled", "\(job)")
                    case .hungWithDeadline:
                        #expect(outcome == "timedOut", "\(job)")
                    case .stubborn:
                        #expect(outcome == "shutDown", "\(job)")
                    }
                }
                #expect(jobs.filter { $0.kind == .late }.count == JobProducer.lateJobs)
                #expect(jobs.contains { $0.kind == .quick && $0.outcome == "cancelled" })  // refused or asked

                // 2. No attempt started after the limiter closed; the late jobs never reached the backend.
                #expect(ledger["attempt.afterClose"] == 0)
                #expect(ledger["attempt.started.late"] == 0 && ledger["request.late"] == 0)

                // 3. The drain gave up on exactly the work that ignored its request: the stubborn attempts,
                //    running in the limiter, and the holdout in the registry. Ending them (limiters first)
                //    failed their items with FuturesError.shutDown, which the retry passed on (it is not
                //    transient), so their jobs in the registry ended with them; the holdout was left there,
                //    and its future failed the same way. The log names each leftover with its site and age.
                let report = try #require(drain.report.result?.value)
                #expect(!report.drained && report.endedLeftovers)
                #expect(report.runningLeft == stubborn && report.inFlightLeft == 1)
                #expect(ledger["attempt.started.stubborn"] == stubborn)
                #expect(heldOut.error as? FuturesError == .shutDown && !holdout.future.isCompleted)
                let here = "FuturesServiceLifecycleTests/EndToEndShutdownTests.swift"
                let submitLine = runner.submitLine
                #expect(report.leftovers.count == stubborn + 1)
                for leftover in report.leftovers {
                    switch leftover.owner {
                    case .limiter: #expect(leftover.file == here && leftover.line == submitLine)
                    case .inFlightFutures: #expect(leftover.file == here && leftover.line == holdoutLine)
                    }
                    #expect(leftover.age > .zero)
                }
                #expect(report.leftovers.filter { $0.owner == .inFlightFutures }.count == 1)
                let warning = try #require(handler.entries.first { $0.level == .warning })
                #expect(warning.message.contains("failed with FuturesError.shutDown"))
                guard case .array(let listed) = warning.metadata["futures.leftovers"] else {
                    Issue.record("the warning lists no leftovers")
                    return
                }
                #expect(listed.map { "\($0)" } == report.leftovers.map { "\($0)" })
                #expect(listed.count == stubborn + 1)
                #expect(
                    listed.filter { "\($0)".hasPrefix("submit at \(here):\(submitLine), pending for ") }.count
                        == stubborn)
                #expect(listed.contains { "\($0)".hasPrefix("add at \(here):\(holdoutLine), pending for ") })

                // 4. The limiter's gauges are back to 0, after having been at the bound; the late jobs were
                //    refused.
                let dimensions = [("limiter", "jobs")]
                let running = try metrics.expectMeter("futures_limiter_running", dimensions)
                let queued = try metrics.expectMeter("futures_limiter_queued", dimensions)
                #expect(running.lastValue == 0 && queued.lastValue == 0)
                #expect(running.values.max() == 8)
                #expect(
                    try metrics.expectCounter("futures_limiter_refused_total", dimensions).totalValue
                        >= Int64(JobProducer.lateJobs))
                #expect(runner.limiter.runningCount == 0 && runner.limiter.queuedCount == 0)
                #expect(runner.inFlight.count == 0)

                // 5. Every job's span has ended — the leftovers' with the shutdown — and the only spans still
                //    open are the attempts whose work ignored the request and still runs.
                let jobSpans = tracer.finishedSpans.filter { $0.operationName == "job" }
                #expect(jobSpans.count == jobs.count)
                let shutDownSpans = jobSpans.filter {
                    $0.attributes["futures.outcome"]?.toSpanAttribute() == "shutdown"
                }
                #expect(shutDownSpans.count == stubborn)
                for span in shutDownSpans {
                    #expect(span.attributes["job.kind"]?.toSpanAttribute() == "stubborn")
                    #expect(span.status == SpanStatus(code: .error, message: "shut down"))
                    #expect(span.errors.map { $0.error as? FuturesError } == [.shutDown])
                }
                let open = tracer.activeSpans
                #expect(open.count == stubborn)
                #expect(open.allSatisfy { $0.operationName == "attempt" })

                // The late answers come: the work ends, its spans end, and nothing else changes.
                backend.gate.open()
                await ledger.until { $0["attempt.ended.stubborn"] == stubborn }
                #expect(tracer.activeSpans.isEmpty)
                let attemptSpans = tracer.finishedSpans.filter { $0.operationName == "attempt" }
                #expect(attemptSpans.count == JobKind.allCases.map { ledger["attempt.started.\($0)"] }.reduce(0, +))
                // Each attempt is a child of its job's span: the trace context went through the retry and the
                // limiter.
                let jobSpanIDs = Set(jobSpans.map(\.spanID))
                #expect(attemptSpans.allSatisfy { $0.parentSpanID.map(jobSpanIDs.contains) == true })
                #expect(runner.jobs.filter { $0.kind == .stubborn }.allSatisfy { $0.outcome == "shutDown" })
                #expect(running.lastValue == 0 && running.values.min() == 0)
                #expect(runner.limiter.runningCount == 0)
                // The holdout's work ends late too: the future the registry returned keeps the shutdown.
                holdout.promise.success(1)
                #expect(heldOut.error as? FuturesError == .shutDown && runner.inFlight.count == 0)
            }
        }
    }

    // MARK: - The job runner

    /// What a job asks of the backend.
    enum JobKind: String, CaseIterable, Sendable {
        /// Answered at once; a success submits the next quick job (the load goes on until the shutdown).
        case quick
        /// Answered with 503 twice, then 200: the retry's back-off gets it through.
        case flaky
        /// Never answered: the request is held until the client hangs up (it does, when asked).
        case hung
        /// Never answered, with a 100 ms deadline per attempt: the attempts time out, then the job fails.
        case hungWithDeadline
        /// Answered only when the test opens the gate, whatever the client does; its client (a callback SDK
        /// wrapped without a cancel hook) ignores cancellation requests.
        case stubborn
        /// Submitted after the drain returned: refused.
        case late

        /// The backend's route.
        var path: String {
            switch self {
            case .quick, .late: "/quick"
            case .flaky: "/flaky"
            case .hung, .hungWithDeadline: "/hung"
            case .stubborn: "/stubborn"
            }
        }

        /// How long an attempt may run: long enough never to pass in this test, but for the deadline kind.
        var attemptTimeout: Duration {
            self == .hungWithDeadline ? .milliseconds(100) : .seconds(3_600)
        }
    }

    /// A submitted job and its future.
    struct Job: Sendable, CustomStringConvertible {
        let id: Int
        let kind: JobKind
        let future: Future<String, any Error>

        /// `success`, `cancelled`, `shutDown`, `timedOut`, `pending`, or the error.
        var outcome: String {
            switch future.result {
            case nil: "pending"
            case .success: "success"
            case .failure(let error): "\(error)"
            }
        }

        var description: String { "job \(id) (\(kind)): \(outcome)" }
    }

    /// The job runner, as a user writes it: each job is a span around a future in flight, which retries
    /// with back-off an attempt submitted to the limiter with a deadline; each attempt is a span around an
    /// HTTP request.
    final class JobRunner: Sendable {
        let limiter: ConcurrencyLimiter
        let inFlight = InFlightFutures()
        let tracer: InMemoryTracer
        let backend: LoopbackBackend
        let client: BackendClient
        let ledger: Ledger
        let logger: Logger
        private let submitted = LockedBox<[Job]>([])
        private let lastID = Atomic<Int>(0)
        private let submitCall = LockedBox<UInt>(0)

        /// The most quick jobs, a guard against a runaway chain (the shutdown ends it long before).
        static let quickBudget = 20_000

        init(backend: LoopbackBackend, metrics: TestMetrics, tracer: InMemoryTracer, ledger: Ledger, logger: Logger) {
            self.limiter = ConcurrencyLimiter(
                maxConcurrent: 8,
                observer: CountingObserver(metrics: LimiterMetrics(name: "jobs", factory: metrics), ledger: ledger))
            self.tracer = tracer
            self.backend = backend
            self.client = BackendClient()
            self.ledger = ledger
            self.logger = logger
        }

        var jobs: [Job] { submitted.withValue { $0 } }
        /// The line of the runner's `limiter.submit` call.
        var submitLine: UInt { submitCall.withValue { $0 } }

        /// Submits a job; its future completes with the body, or the last attempt's failure, or the
        /// shutdown's.
        @discardableResult
        func submit(_ kind: JobKind) -> Future<String, any Error> {
            let id = lastID.add(1, ordering: .relaxed).newValue
            ledger.add("job.submitted.\(kind)")
            let future = tracer.withFutureSpan("job") { span in
                span.attributes["job.kind"] = kind.rawValue
                span.attributes["job.id"] = id
                return inFlight.add(retrying(kind, id))
            }
            submitted.withValue { $0.append(Job(id: id, kind: kind, future: future)) }
            future.onComplete(immediateExecutionContext) { [self] result in
                switch result {
                case .success:
                    if kind == .quick && id < Self.quickBudget { submit(.quick) }
                    ledger.add("job.success.\(kind)")
                case .failure(let error):
                    logger.debug(
                        "job failed", metadata: ["job.id": "\(id)", "job.kind": "\(kind)", "error": "\(error)"])
                }
                ledger.add("job.done.\(kind)")
            }
            return future
        }

        /// Up to three attempts, 5 ms apart and then 10 ms; a transient failure (a 503, a deadline) retries.
        private func retrying(_ kind: JobKind, _ id: Int) -> Future<String, any Error> {
            Future.retry(3, backoff: .exponential(initial: .milliseconds(5))) { [self] in
                let submitLine = UInt(#line) + 1
                let attempt = limiter.submit(timeout: kind.attemptTimeout) { [self] in
                    self.attempt(kind, id)
                }
                submitCall.withValue { $0 = submitLine }
                return attempt
            }
        }

        /// One attempt: a span around the request.
        private func attempt(_ kind: JobKind, _ id: Int) -> Future<String, any Error> {
            if limiter.isClosed { ledger.add("attempt.afterClose") }
            ledger.add("attempt.started.\(kind)")
            let url = backend.url(kind, job: id)
            let work = tracer.withFutureSpan("attempt", ofKind: .client) { span in
                span.attributes["job.kind"] = kind.rawValue
                span.attributes["job.id"] = id
                return kind == .stubborn ? client.getIgnoringCancellation(url) : client.get(url)
            }
            // An observer: it must not hold back the cancellation requests that reach the work.
            work.observe(immediateExecutionContext) { [ledger] _ in ledger.add("attempt.ended.\(kind)") }
            return work
        }
    }

    /// The service that submits the jobs: a wave when the group starts it, then quick jobs as earlier ones
    /// succeed; when the group shuts it down (after the drain, listed after it), a few late jobs.
    struct JobProducer: Service {
        let runner: JobRunner
        let loaded = Promise<Void, Never>()

        /// The first wave: the work that holds slots first, then the rest.
        static let wave: [JobKind: Int] = [.stubborn: 2, .hung: 3, .hungWithDeadline: 2, .flaky: 3, .quick: 4]
        static let lateJobs = 3

        func run() async throws {
            for kind in [JobKind.stubborn, .hung, .hungWithDeadline, .flaky, .quick] {
                for _ in 0..<Self.wave[kind]! { runner.submit(kind) }
            }
            loaded.success(())
            try? await gracefulShutdown()
            for _ in 0..<Self.lateJobs { runner.submit(.late) }
        }
    }

    /// Passes the limiter's events to its metrics, and counts the running items for the test.
    struct CountingObserver: ConcurrencyLimiterObserver {
        let metrics: LimiterMetrics
        let ledger: Ledger

        func observe(_ event: ConcurrencyLimiter.Event) {
            metrics.observe(event)
            switch event {
            case .started: ledger.add("limiter.running")
            case .finished: ledger.add("limiter.running", -1)
            case .queued, .removed, .refused: break
            }
        }
    }

    // MARK: - The backend and its client

    enum BackendError: Error {
        case unavailable
        case status(Int)
    }

    /// The backend on 127.0.0.1: one route per behaviour (see ``JobKind``).
    final class LoopbackBackend: Sendable {
        let server: LoopbackHTTPServer
        /// Holds the stubborn requests' answers until the test opens it.
        let gate: Gate

        init(ledger: Ledger) throws {
            let gate = Gate()
            let served = LockedBox<[String: Int]>([:])
            self.gate = gate
            self.server = try LoopbackHTTPServer(handler: { request in
                let kind = request.query["kind"] ?? "?"
                let job = request.query["job"] ?? "?"
                ledger.add("request.\(kind)")
                switch request.path {
                case "/quick":
                    return .init(body: "done \(job)")
                case "/flaky":
                    let seen = served.withValue { counts in
                        counts[job, default: 0] += 1
                        return counts[job, default: 0]
                    }
                    guard seen > 2 else {
                        ledger.add("request.flaky.503")
                        return .init(status: 503, body: "busy")
                    }
                    return .init(body: "done \(job)")
                case "/hung":
                    return .hold
                case "/stubborn":
                    gate.wait()  // on the connection's own thread: the client's hang-up goes unnoticed
                    return .init(body: "late \(job)")
                default:
                    return .init(status: 404, body: "not found")
                }
            })
        }

        func url(_ kind: JobKind, job: Int) -> URL {
            server.url("\(kind.path)?kind=\(kind.rawValue)&job=\(job)")
        }

        /// Opens the gate and stops the server (its held requests end within 100 ms).
        func stop() {
            gate.open()
            server.stop()
        }
    }

    /// A one-way gate for threads: ``wait()`` blocks until ``open()``.
    final class Gate: Sendable {
        private let group = DispatchGroup()
        private let isOpen = Atomic<Bool>(false)

        init() { group.enter() }

        func wait() { group.wait() }

        func open() {
            if !isOpen.exchange(true, ordering: .acquiringAndReleasing) { group.leave() }
        }
    }

    /// The runner's HTTP client.
    struct BackendClient: Sendable {
        let session: URLSession

        /// Sessions are kept until the process exits (see `makeLoopbackSession()` in FuturesTests: one
        /// dropped without being invalidated leaves connection state that LeakSanitizer reports).
        static let sessions = LockedBox<[URLSession]>([])

        init() {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.connectionProxyDictionary = [:]
            configuration.httpMaximumConnectionsPerHost = 64
            configuration.timeoutIntervalForRequest = 1_800
            configuration.timeoutIntervalForResource = 1_800
            let session = URLSession(configuration: configuration)
            Self.sessions.withValue { $0.append(session) }
            self.session = session
        }

        /// A GET whose cancellation request cancels the request (`URLSession.dataFuture`).
        func get(_ url: URL) -> Future<String, any Error> {
            session.dataFuture(from: url).flatMap(immediateExecutionContext) { data, response in
                Self.check(data, response)
            }
        }

        /// A GET through a callback API wrapped without a cancel hook: a cancellation request does nothing,
        /// the request runs until the backend answers.
        func getIgnoringCancellation(_ url: URL) -> Future<String, any Error> {
            let promise = Promise<String, any Error>()
            session.dataTask(with: url) { data, response, error in
                if let error {
                    promise.failure(error)
                } else if let response {
                    promise.completeWith(Self.check(data ?? Data(), response))
                } else {
                    promise.failure(URLError(.badServerResponse))
                }
            }.resume()
            return promise.future
        }

        private static func check(_ data: Data, _ response: URLResponse) -> Future<String, any Error> {
            switch (response as? HTTPURLResponse)?.statusCode ?? 0 {
            case 200..<300: Future(value: String(decoding: data, as: UTF8.self))
            case 503: Future(error: BackendError.unavailable)
            case let status: Future(error: BackendError.status(status))
            }
        }
    }

    // MARK: - Waiting for conditions

    /// Counters the runner, the backend and the limiter's observer update from any thread, and the waits
    /// of the test for conditions on them (no sleeping: each update checks the waits).
    ///
    /// This file's shared state is behind the library's `LockedBox`, not a `Mutex`: many threads update it
    /// at once, and a contended `Mutex` on Linux hands ownership over through a futex that
    /// ThreadSanitizer cannot see (it reports false races).
    final class Ledger: Sendable {
        /// A snapshot of the counters (absent ones are 0).
        struct Counts: Sendable {
            fileprivate var values: [String: Int] = [:]
            subscript(key: String) -> Int { values[key, default: 0] }
        }

        private struct Waiter: Sendable {
            let condition: @Sendable (Counts) -> Bool
            let promise: Promise<Void, Never>
        }

        private struct State: Sendable {
            var counts = Counts()
            var waiters: [Waiter] = []
        }

        private let state = LockedBox(State())

        subscript(key: String) -> Int { state.withValue { $0.counts[key] } }

        /// Adds `amount` to the counter `key`, and ends the waits whose condition now holds (after the lock).
        func add(_ key: String, _ amount: Int = 1) {
            let ready = state.withValue { state -> [Promise<Void, Never>] in
                state.counts.values[key, default: 0] += amount
                var ready: [Promise<Void, Never>] = []
                state.waiters.removeAll { waiter in
                    guard waiter.condition(state.counts) else { return false }
                    ready.append(waiter.promise)
                    return true
                }
                return ready
            }
            for promise in ready { promise.success(()) }
        }

        /// Returns once `condition` holds.
        func until(_ condition: @escaping @Sendable (Counts) -> Bool) async {
            let promise = Promise<Void, Never>()
            let holds = state.withValue { state -> Bool in
                if condition(state.counts) { return true }
                state.waiters.append(Waiter(condition: condition, promise: promise))
                return false
            }
            if holds { promise.success(()) }  // not dropped pending (that would be reported)
            await promise.future.get()
        }
    }
#endif
