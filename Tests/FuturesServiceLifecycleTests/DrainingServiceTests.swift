#if ServiceLifecycle
    import Clocks
    import Dispatch
    import Futures
    import FuturesServiceLifecycle
    import Logging
    import ServiceLifecycle
    import ServiceLifecycleTestKit
    import Synchronization
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A service that says when the group runs its services (their `run()` starts only after the group
    /// has registered its signal handlers), then waits for the graceful shutdown.
    struct ReadyProbe: Service {
        let ready = Promise<Void, Never>()

        func run() async throws {
            ready.success(())
            try? await gracefulShutdown()
        }
    }

    /// Work that honours a cancellation request: when asked, it records the ask and fails with
    /// `FuturesError.cancelled` a moment later, from another thread (so the drain really waits for it).
    final class CooperativeWork: Sendable {
        let promise = Promise<Int, any Error>()
        /// Completed when the work was asked to cancel.
        let asked = Promise<Void, Never>()

        init() {
            let promise = self.promise
            let asked = self.asked
            promise.onCancellationRequested {
                asked.success(())
                DispatchQueue.global().async { promise.tryFailure(FuturesError.cancelled) }
            }
        }

        var future: Future<Int, any Error> { promise.future }
    }

    /// Work that ignores cancellation requests (it only records them): the drain's deadline must end the
    /// wait.
    final class StubbornWork: Sendable {
        let promise = Promise<Int, any Error>()
        let asked = Promise<Void, Never>()

        init() {
            let asked = self.asked
            promise.onCancellationRequested { asked.success(()) }
        }

        var future: Future<Int, any Error> { promise.future }
    }

    /// A stand-in for a server: once the group runs its services (so its signal handlers are installed), it
    /// raises SIGTERM in this process, then waits for the graceful shutdown.
    struct SignalingServer: Service {
        func run() async throws {
            kill(getpid(), SIGTERM)
            try? await gracefulShutdown()
        }
    }

    let quietLogger = Logger(label: "futures.tests.lifecycle") { _ in SwiftLogNoOpLogHandler() }

    /// Serialized: the tests that raise SIGTERM must not run at once (one group could take the other's
    /// signal, and finish before its own arrives).
    @Suite("DrainingService", .hangGuard(), .serialized)
    struct DrainingServiceTests {
        @Test("The recipe of the DrainingOnShutdown article, with a real SIGTERM")
        func theRecipe() async throws {
            let logger = quietLogger
            let server = SignalingServer()
            let limiter = ConcurrencyLimiter(maxConcurrent: 8)
            let inFlight = InFlightFutures()
            let drain = DrainingService(
                limiters: [limiter], inFlight: [inFlight], deadline: .seconds(10),
                logger: logger)
            let group = ServiceGroup(
                configuration: .init(
                    services: [server, drain], gracefulShutdownSignals: [.sigterm],
                    logger: logger))
            try await group.run()  // SIGTERM: drain, then return
            #expect(await drain.report.get().drained)
            #expect(limiter.isClosed && inFlight.isClosed)
        }

        @Test("SIGTERM: submissions are refused, in-flight work is asked and drained, run() returns")
        func drainsOnSignal() async throws {
            let limiter = ConcurrencyLimiter(maxConcurrent: 1)
            let inFlight = InFlightFutures()
            let running = CooperativeWork()
            let tracked = CooperativeWork()
            let ranLate = Atomic<Int>(0)

            let item = limiter.submit { running.future }  // takes the only slot
            let queued = limiter.submit { () -> Future<Int, any Error> in
                ranLate.add(1, ordering: .relaxed)
                return Future(value: 1)
            }
            inFlight.add(tracked.future)
            #expect(limiter.runningCount == 1 && limiter.queuedCount == 1 && inFlight.count == 1)

            // Submitted while the drain asks the running work, i.e. after the shutdown began.
            let late = Mutex<Future<Int, any Error>?>(nil)
            let lateTracked = CooperativeWork()
            running.asked.future.onSuccess(immediateExecutionContext) {
                late.withLock {
                    $0 = limiter.submit { () -> Future<Int, any Error> in
                        ranLate.add(1, ordering: .relaxed)
                        return Future(value: 2)
                    }
                }
                inFlight.add(lateTracked.future)
            }

            let probe = ReadyProbe()
            let drain = DrainingService(limiters: [limiter], inFlight: [inFlight], deadline: .seconds(600))
            let group = ServiceGroup(
                configuration: .init(
                    services: [probe, drain], gracefulShutdownSignals: [.sigterm], logger: quietLogger))
            let groupRun = Task { try await group.run() }

            await probe.ready.future.get()  // the group traps SIGTERM from here on
            kill(getpid(), SIGTERM)

            try await groupRun.value  // run() returned, and so did the group
            let report = await drain.report.get()
            #expect(report.drained)
            #expect(report.runningLeft == 0 && report.inFlightLeft == 0)

            // The running work and the tracked future were asked, and drained (they failed as asked).
            #expect(running.asked.future.isCompleted && tracked.asked.future.isCompleted)
            #expect(item.result?.error as? FuturesError == .cancelled)
            #expect(tracked.future.result?.error as? FuturesError == .cancelled)
            // The queued work was dropped unrun; the late submission was refused unrun, the late addition
            // asked at once.
            #expect(queued.result?.error as? FuturesError == .cancelled)
            let refused = try #require(late.withLock { $0 })
            #expect(refused.result?.error as? FuturesError == .cancelled)
            #expect(ranLate.load(ordering: .relaxed) == 0)
            #expect(lateTracked.asked.future.isCompleted)
            #expect(limiter.isClosed && inFlight.isClosed)
        }

        @Test("The deadline ends the leftovers with FuturesError.shutDown, frees their slots, and lists them")
        func deadlineEndsTheLeftovers() async throws {
            let clock = TestClock()
            let limiter = ConcurrencyLimiter(maxConcurrent: 3)
            let inFlight = InFlightFutures()
            let stubborn = StubbornWork()
            let typedWork = Promise<Int, TypedFailure>()
            let tracked = StubbornWork()
            let trackedTyped = Promise<Int, TypedFailure>()
            let done = CooperativeWork()
            let (item, itemLine) = (limiter.submit { stubborn.future }, UInt(#line))
            let typedItem = limiter.submit(failingWith: TypedFailure.shutDown) { typedWork.future }
            let doneItem = limiter.submit { done.future }
            let (output, outputLine) = (inFlight.add(tracked.future), UInt(#line))
            let typedOutput = inFlight.add(trackedTyped.future, failingWith: .shutDown)
            let completedOutput = inFlight.add(Future<Int, Never>(value: 9))
            let handler = CapturingLogHandler()
            let drain = DrainingService(
                limiters: [limiter], inFlight: [inFlight], deadline: .seconds(30), clock: clock,
                logger: Logger(label: "futures.tests.drain") { _ in handler })

            try await testGracefulShutdown { trigger in
                let run = Task { try await drain.run() }
                trigger.triggerGracefulShutdown()
                // Asked means the drain began, and set its deadline on the clock before asking.
                await stubborn.asked.future.get()
                await tracked.asked.future.get()
                _ = try? await done.future.get()
                #expect(!drain.report.isCompleted)
                await clock.advance(by: .seconds(30) + .nanoseconds(1))
                try await run.value
            }
            let report = try #require(drain.report.result?.value)
            #expect(!report.drained && report.endedLeftovers)
            #expect(report.runningLeft == 2 && report.inFlightLeft == 2)
            #expect(report.waited >= .seconds(30))
            #expect(report.description.contains("2 running, 2 in flight left (failed with FuturesError.shutDown)"))
            // Every future the drain owned has an outcome, and every slot is free.
            #expect(item.result?.error as? FuturesError == .shutDown)
            #expect(typedItem.result?.error == .shutDown)
            #expect(doneItem.result?.error as? FuturesError == .cancelled)
            #expect(output.result?.error as? FuturesError == .shutDown)
            #expect(typedOutput.result?.error == .shutDown)
            #expect(completedOutput.result?.value == 9)
            #expect(limiter.runningCount == 0 && inFlight.count == 0)
            #expect(limiter.whenIdle().isCompleted && inFlight.whenIdle().isCompleted)
            // Each leftover, with its site and age, in the report and in the log.
            let here = "FuturesServiceLifecycleTests/DrainingServiceTests.swift"
            #expect(report.leftovers.count == 4)
            #expect(
                report.leftovers.first
                    == DrainingService.Leftover(
                        owner: .limiter, file: here, line: itemLine, age: report.leftovers[0].age))
            #expect(report.leftovers.contains { $0.owner == .inFlightFutures && $0.line == outputLine })
            #expect(report.leftovers.allSatisfy { $0.age >= .zero })
            #expect("\(report.leftovers[0])".hasPrefix("submit at \(here):\(itemLine), pending for "))
            let warning = try #require(handler.entries.first { $0.level == .warning })
            #expect(warning.message.contains("failed with FuturesError.shutDown"))
            guard case .array(let listed) = warning.metadata["futures.leftovers"] else {
                Issue.record("the warning lists no leftovers")
                return
            }
            #expect(listed.map { "\($0)" } == report.leftovers.map { "\($0)" })
            // The work that ignored the request ends later: nothing more happens.
            stubborn.promise.success(1)
            typedWork.success(2)
            tracked.promise.success(3)
            trackedTyped.success(4)
            #expect(
                item.result?.error as? FuturesError == .shutDown && output.result?.error as? FuturesError == .shutDown)
            #expect(limiter.runningCount == 0 && inFlight.count == 0)
        }

        @Test("With .leavePending the leftovers stay pending and keep their slots, and the report lists them")
        func leavePendingKeepsTheLeftovers() async throws {
            let clock = TestClock()
            let limiter = ConcurrencyLimiter(maxConcurrent: 2)
            let inFlight = InFlightFutures()
            let stubborn = StubbornWork()
            let tracked = StubbornWork()
            let item = limiter.submit { stubborn.future }
            let output = inFlight.add(tracked.future)
            let drain = DrainingService(
                limiters: [limiter], inFlight: [inFlight], deadline: .seconds(30), clock: clock,
                leftovers: .leavePending)
            try await testGracefulShutdown { trigger in
                let run = Task { try await drain.run() }
                trigger.triggerGracefulShutdown()
                await stubborn.asked.future.get()
                await tracked.asked.future.get()
                await clock.advance(by: .seconds(30) + .nanoseconds(1))
                try await run.value
            }
            let report = try #require(drain.report.result?.value)
            #expect(!report.drained && !report.endedLeftovers)
            #expect(report.runningLeft == 1 && report.inFlightLeft == 1 && report.leftovers.count == 2)
            #expect(
                report.description.contains("1 running, 1 in flight left") && !report.description.contains("shutDown"))
            #expect(item.result == nil && output.result == nil)
            #expect(limiter.runningCount == 1 && inFlight.count == 1)
            // The work decides: it keeps its slot until it ends.
            stubborn.promise.success(1)
            tracked.promise.success(2)
            #expect(item.result?.value == 1 && output.result?.value == 2)
            #expect(limiter.runningCount == 0 && inFlight.count == 0)
        }

        @Test("A cancelled run() drains without waiting, ends the leftovers and returns")
        func cancelledRunDoesNotWait() async throws {
            let limiter = ConcurrencyLimiter(maxConcurrent: 1)
            let stubborn = StubbornWork()
            let item = limiter.submit { stubborn.future }
            let drain = DrainingService(limiters: [limiter], deadline: .seconds(600))
            let run = Task { try await drain.run() }
            run.cancel()
            try await run.value
            let report = try #require(drain.report.result?.value)
            #expect(!report.drained && report.runningLeft == 1 && report.endedLeftovers)
            #expect(stubborn.asked.future.isCompleted && limiter.isClosed)
            #expect(item.result?.error as? FuturesError == .shutDown && limiter.runningCount == 0)
            stubborn.promise.success(1)
        }

        @Test("Nothing in flight: the drain returns at once")
        func nothingToDrain() async throws {
            let drain = DrainingService(
                limiters: [ConcurrencyLimiter(maxConcurrent: 4)], inFlight: [InFlightFutures()],
                deadline: .seconds(600))
            try await testGracefulShutdown { trigger in
                trigger.triggerGracefulShutdown()
                try await drain.run()
            }
            #expect(drain.report.result?.value?.drained == true)
        }
    }

    /// A typed failure with a case that says "shut down".
    enum TypedFailure: Error, Equatable {
        case shutDown
        case broken
    }

    /// Keeps every message logged through it.
    final class CapturingLogHandler: LogHandler, @unchecked Sendable {
        // `@unchecked Sendable`: `entries` is behind a lock; `metadata` and `logLevel` are set only while the
        // logger is made, before it is shared. The lock is the library's `LockedBox`, not a `Mutex`: the
        // end-to-end test logs from many threads at once, and a contended `Mutex` on Linux hands ownership
        // over through a futex that ThreadSanitizer cannot see (false races).
        struct Entry: Sendable {
            let level: Logger.Level
            let message: String
            let metadata: Logger.Metadata
        }

        private let logged = LockedBox<[Entry]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        var entries: [Entry] { logged.value }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            logged.withValue {
                $0.append(Entry(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
            }
        }
    }

    extension Result {
        var error: Failure? {
            if case .failure(let error) = self { error } else { nil }
        }
        var value: Success? {
            if case .success(let value) = self { value } else { nil }
        }
    }
#endif
