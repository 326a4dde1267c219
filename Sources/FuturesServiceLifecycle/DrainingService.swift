#if ServiceLifecycle
    import Futures
    import Logging
    import ServiceLifecycle

    /// A `Service` that drains a service's futures on graceful shutdown: it stops new work, asks the work
    /// in flight to cancel, waits until it has ended or a deadline has passed, and returns from ``run()``.
    ///
    /// Run it in the application's `ServiceGroup` next to the services that start the work:
    ///
    /// ```swift
    /// let limiter = ConcurrencyLimiter(maxConcurrent: 8)
    /// let inFlight = InFlightFutures()
    /// let drain = DrainingService(
    ///     limiters: [limiter], inFlight: [inFlight], deadline: .seconds(10),
    ///     logger: logger)
    /// let group = ServiceGroup(
    ///     configuration: .init(
    ///         services: [server, drain], gracefulShutdownSignals: [.sigterm],
    ///         logger: logger))
    /// try await group.run()  // SIGTERM: drain, then return
    /// ```
    ///
    /// ## What happens on shutdown
    /// ``run()`` waits for the group's graceful shutdown (a signal in `gracefulShutdownSignals`, or
    /// `ServiceGroup.triggerGracefulShutdown()`). Then, in order:
    /// 1. Each limiter is closed (`ConcurrencyLimiter.close()`): later submissions fail at once
    ///    (`FuturesError.cancelled`, or their `failingWith:` error) without running, queued work is
    ///    dropped unrun and fails the same way, and running work is asked to cancel through its item's
    ///    future, one consumer of the work's future (GUARANTEES.md G8).
    /// 2. Each registry is closed (``InFlightFutures/close()``): later additions are asked at once, and
    ///    every future in flight gets a `requestCancellation()`.
    /// 3. It waits until every limiter and registry is idle (`ConcurrencyLimiter.whenIdle()`,
    ///    ``InFlightFutures/whenIdle()``) — the producers decide how their work ends — or until `deadline`
    ///    has passed on `clock`, whichever comes first.
    /// 4. If work is left (it ignored the request), it ends it as `leftovers` says: with
    ///    ``LeftoverPolicy/fail`` (the default), each limiter item's future and each future a registry
    ///    returned fails at once with `FuturesError.shutDown` (or the error given as `failingWith:`), and
    ///    each limiter slot is freed (a limiter's observer hears it finish, so gauges return to 0); with
    ///    ``LeftoverPolicy/leavePending`` they stay pending, as the work decides.
    /// 5. It completes ``report`` (what drained, and each leftover with where it was submitted or added and
    ///    its age), logs it when it has a logger (a warning listing the leftovers when work was left), and
    ///    returns.
    ///
    /// Work still running after the deadline is not waited for: the process may exit under it. Give the
    /// group's `maximumGracefulShutdownDuration` more time than `deadline`, or the group cancels the
    /// service first (which ends the wait early, see *Cancellation*).
    ///
    /// ## Cancellation
    /// If the task running ``run()`` is cancelled (the group cancels its services when its
    /// `maximumGracefulShutdownDuration` has passed, or on a cancellation signal), it drains the same way
    /// but does not wait, or stops waiting: the work is asked, the leftovers are ended as `leftovers`
    /// says, ``report`` says what was left, and ``run()`` returns at once without throwing.
    ///
    /// ## Order in the group
    /// A `ServiceGroup` shuts its services down in reverse order, one after the other. Listed after the
    /// services that submit work, the drain begins first: their new submissions are refused while they
    /// shut down. Listed before them, it begins once they have returned (a server that finishes its open
    /// requests first, using the limiter meanwhile).
    public final class DrainingService: Service, Sendable, CustomStringConvertible {
        /// What the drain does with the work still pending when it gives up (its deadline passed, or its
        /// task was cancelled).
        public enum LeftoverPolicy: Sendable, Hashable {
            /// Ends each leftover: its future (a limiter item's, or the one a registry's `add` returned)
            /// fails at once with `FuturesError.shutDown`, or the `failingWith:` error it was given; its
            /// limiter slot is freed. The work itself may still run (it ignored the cancellation request);
            /// when it ends, nothing more happens. Every future the drained limiters and registries
            /// returned then has an outcome.
            case fail
            /// Leaves the leftovers pending: their futures complete, and their slots free, when their work
            /// decides; the limiters and registries stay busy until then.
            case leavePending
        }

        /// A piece of work the drain found still pending when it gave up.
        public struct Leftover: Sendable, Hashable, CustomStringConvertible {
            /// What held the work.
            public enum Owner: Sendable, Hashable {
                /// A `ConcurrencyLimiter` item, running.
                case limiter
                /// A future in an ``InFlightFutures`` registry.
                case inFlightFutures
            }

            /// What held the work.
            public var owner: Owner
            /// The file of the call that submitted or added it (`ConcurrencyLimiter.submit`,
            /// ``InFlightFutures/add(_:file:line:)``), as `#fileID` gave it.
            public var file: String
            /// The line of that call.
            public var line: UInt
            /// How long before the drain gave up it was submitted or added.
            public var age: Duration

            /// Creates a leftover.
            package init(owner: Owner, file: String, line: UInt, age: Duration) {
                self.owner = owner
                self.file = file
                self.line = line
                self.age = age
            }

            /// One line, as the pending-futures report writes its entries: `submit at App/Jobs.swift:42,
            /// pending for 10.2 s` (`add at …` for a registry's).
            public var description: String {
                "\(owner == .limiter ? "submit" : "add") at \(file):\(line), pending for \(Self.format(age))"
            }

            /// `850 ms`, `12.5 s`, `3 min 5 s`.
            static func format(_ age: Duration) -> String {
                let (seconds, attoseconds) = age.components
                let milliseconds = max(seconds * 1000 + attoseconds / 1_000_000_000_000_000, 0)
                if milliseconds < 10_000 { return "\(milliseconds) ms" }
                let tenths = milliseconds / 100
                if tenths < 6000 { return "\(tenths / 10).\(tenths % 10) s" }
                return "\(tenths / 600) min \(tenths / 10 % 60) s"
            }
        }

        /// What the drain achieved: whether everything ended before the deadline, and what was left.
        public struct Report: Sendable, Hashable, CustomStringConvertible {
            /// Whether every limiter and registry was idle when the wait ended: every future they returned
            /// had an outcome, and no work was left.
            public var drained: Bool
            /// Work still running in the limiters when the wait ended (their queues are empty once closed).
            public var runningLeft: Int
            /// Futures still in flight in the registries when the wait ended.
            public var inFlightLeft: Int
            /// How long the wait took, on the service's clock.
            public var waited: Duration
            /// Each piece of work left when the wait ended, limiters' first, each group oldest first.
            public var leftovers: [Leftover]
            /// Whether the leftovers were ended (``LeftoverPolicy/fail``): their futures failed and their
            /// slots were freed. `false` when none was left, or with ``LeftoverPolicy/leavePending``.
            public var endedLeftovers: Bool

            /// Creates a report.
            package init(
                drained: Bool, runningLeft: Int, inFlightLeft: Int, waited: Duration, leftovers: [Leftover] = [],
                endedLeftovers: Bool = false
            ) {
                self.drained = drained
                self.runningLeft = runningLeft
                self.inFlightLeft = inFlightLeft
                self.waited = waited
                self.leftovers = leftovers
                self.endedLeftovers = endedLeftovers
            }

            /// One line: `drained in 12 ms`, or `not drained after 10 s: 2 running, 1 in flight left`, with
            /// `(failed with FuturesError.shutDown)` when they were ended.
            public var description: String {
                if drained { return "drained in \(waited)" }
                let ended = endedLeftovers ? " (failed with FuturesError.shutDown)" : ""
                return "not drained after \(waited): \(runningLeft) running, \(inFlightLeft) in flight left\(ended)"
            }
        }

        private let limiters: [ConcurrencyLimiter]
        private let registries: [InFlightFutures]
        private let deadline: Duration
        private let policy: LeftoverPolicy
        private let logger: Logger?
        /// Starts the wait on the service's clock, with its deadline set now: returns how to sleep until
        /// the deadline (returns early when the task is cancelled) and how long it has been since.
        private let startWait: @Sendable (Duration) -> Wait
        private let finished = Future<Report, Never>()

        /// Creates a service that drains `limiters` and `inFlight` on graceful shutdown.
        ///
        /// - Parameters:
        ///   - limiters: Limiters to close and wait for.
        ///   - inFlight: Registries of futures to close and wait for.
        ///   - deadline: How long to wait for the work to end after asking it to cancel; clamped to ≥ 0.
        ///   - clock: The clock `deadline` is measured on (`ContinuousClock()` by default).
        ///   - leftovers: What to do with the work still pending when the drain gives up:
        ///     ``LeftoverPolicy/fail`` (the default) ends it with `FuturesError.shutDown`,
        ///     ``LeftoverPolicy/leavePending`` leaves it to its work.
        ///   - logger: Where the outcome is logged (`info` when drained, `warning` with each leftover's site
        ///     and age, at most 100 of them); `nil` (the default) logs nothing.
        public init<C: Clock<Duration>>(
            limiters: [ConcurrencyLimiter] = [],
            inFlight: [InFlightFutures] = [],
            deadline: Duration,
            clock: C = ContinuousClock(),
            leftovers: LeftoverPolicy = .fail,
            logger: Logger? = nil
        ) {
            self.limiters = limiters
            self.registries = inFlight
            self.deadline = max(deadline, .zero)
            self.policy = leftovers
            self.logger = logger
            self.startWait = { deadline in
                let start = clock.now
                let end = start.advanced(by: deadline)
                return Wait(
                    sleep: { try? await clock.sleep(until: end, tolerance: nil) },
                    elapsed: { start.duration(to: clock.now) })
            }
        }

        /// The outcome of the drain: completes when ``run()`` has drained, just before it returns. Pending
        /// while the service runs (and forever if it never runs).
        public var report: Future<Report, Never> { finished }

        /// `DrainingService(n limiters, m registries, deadline)`.
        public var description: String {
            "DrainingService(\(limiters.count) limiters, \(registries.count) registries, deadline \(deadline))"
        }

        /// Waits for graceful shutdown, then drains (see *What happens on shutdown*) and returns.
        ///
        /// Never throws: a cancelled task drains without waiting (see *Cancellation*).
        public func run() async throws {
            // Throws only when the task is cancelled: then drain without waiting.
            try? await gracefulShutdown()
            let report = await drain()
            if let logger {
                if report.drained {
                    logger.info("futures drained", metadata: ["futures.waited": "\(report.waited)"])
                } else {
                    var listed = report.leftovers.prefix(Self.loggedLeftovers).map {
                        Logger.MetadataValue.string("\($0)")
                    }
                    if report.leftovers.count > Self.loggedLeftovers {
                        listed.append("and \(report.leftovers.count - Self.loggedLeftovers) more")
                    }
                    logger.warning(
                        report.endedLeftovers
                            ? "futures not drained before the deadline: failed with FuturesError.shutDown"
                            : "futures not drained before the deadline: left pending",
                        metadata: [
                            "futures.waited": "\(report.waited)",
                            "futures.running_left": "\(report.runningLeft)",
                            "futures.in_flight_left": "\(report.inFlightLeft)",
                            "futures.leftovers": .array(listed),
                        ])
                }
            }
            finished.complete(.success(report))
        }

        /// The most leftovers a log message lists (the report lists them all).
        static let loggedLeftovers = 100

        /// Closes everything, waits until it is idle or the deadline has passed, ends or lists what was
        /// left, and says so.
        private func drain() async -> Report {
            let wait = startWait(deadline)
            for limiter in limiters { limiter.close() }
            for registry in registries { registry.close() }
            let idle = limiters.map { $0.whenIdle() } + registries.map { $0.whenIdle() }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for future in idle {
                        // Stops waiting (throws) when the deadline passed first and the group cancels this task.
                        do { try await future.get(onTaskCancellation: .stopWaiting) } catch { return }
                    }
                }
                group.addTask { await wait.sleep() }
                await group.next()
                group.cancelAll()
            }
            let waited = wait.elapsed()
            let running: [Leftover]
            let inFlight: [Leftover]
            switch policy {
            case .fail:
                running = limiters.flatMap { limiter in limiter.endRunning().map(Leftover.init(limiterItem:)) }
                inFlight = registries.flatMap { $0.endPending() }
            case .leavePending:
                running = limiters.flatMap { limiter in limiter.runningLeftovers().map(Leftover.init(limiterItem:)) }
                inFlight = registries.flatMap { $0.pendingLeftovers() }
            }
            let drained = running.isEmpty && inFlight.isEmpty
            return Report(
                drained: drained, runningLeft: running.count, inFlightLeft: inFlight.count, waited: waited,
                leftovers: running + inFlight, endedLeftovers: policy == .fail && !drained)
        }

        /// The wait of a drain on the service's clock.
        private struct Wait: Sendable {
            /// Sleeps until the deadline, or until the task is cancelled.
            let sleep: @Sendable () async -> Void
            /// The time since the wait began.
            let elapsed: @Sendable () -> Duration
        }
    }

    extension DrainingService.Leftover {
        /// A limiter item the drain found running.
        init(limiterItem: ConcurrencyLimiter.Leftover) {
            self.init(owner: .limiter, file: limiterItem.file, line: limiterItem.line, age: limiterItem.age)
        }
    }
#endif
