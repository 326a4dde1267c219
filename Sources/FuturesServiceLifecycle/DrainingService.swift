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
    ///    (`FuturesError.cancelled` where their type can hold it) without running, queued work is
    ///    dropped unrun, and running work is asked to cancel through its item's future, one consumer of the
    ///    work's future (GUARANTEES.md G8).
    /// 2. Each registry is closed (``InFlightFutures/close()``): later additions are asked at once, and
    ///    every future in flight gets a `requestCancellation()`.
    /// 3. It waits until every limiter and registry is idle (`ConcurrencyLimiter.whenIdle()`,
    ///    ``InFlightFutures/whenIdle()``) — the producers decide how their work ends — or until `deadline`
    ///    has passed on `clock`, whichever comes first.
    /// 4. It completes ``report`` (what drained and what was left), logs it when it has a logger (a
    ///    warning when work was left), and returns.
    ///
    /// Work still running after the deadline is not waited for: the process may exit under it. Give the
    /// group's `maximumGracefulShutdownDuration` more time than `deadline`, or the group cancels the
    /// service first.
    ///
    /// ## Cancellation
    /// If the task running ``run()`` is cancelled (the group cancels its services, or a cancellation
    /// signal), it drains the same way but does not wait: the work is asked, ``report`` says what was left,
    /// and ``run()`` returns at once without throwing.
    ///
    /// ## Order in the group
    /// A `ServiceGroup` shuts its services down in reverse order, one after the other. Listed after the
    /// services that submit work, the drain begins first: their new submissions are refused while they
    /// shut down. Listed before them, it begins once they have returned (a server that finishes its open
    /// requests first, using the limiter meanwhile).
    public final class DrainingService: Service, Sendable, CustomStringConvertible {
        /// What the drain achieved: whether everything ended before the deadline, and what was left.
        public struct Report: Sendable, Hashable, CustomStringConvertible {
            /// Whether every limiter and registry was idle when the wait ended: no work left running or in
            /// flight.
            public var drained: Bool
            /// Work still running in the limiters when the wait ended (their queues are empty once closed).
            public var runningLeft: Int
            /// Futures still in flight in the registries when the wait ended.
            public var inFlightLeft: Int
            /// How long the wait took, on the service's clock.
            public var waited: Duration

            /// Creates a report.
            public init(drained: Bool, runningLeft: Int, inFlightLeft: Int, waited: Duration) {
                self.drained = drained
                self.runningLeft = runningLeft
                self.inFlightLeft = inFlightLeft
                self.waited = waited
            }

            /// One line: `drained in 12 ms`, or `not drained after 10 s: 2 running, 1 in flight left`.
            public var description: String {
                drained
                    ? "drained in \(waited)"
                    : "not drained after \(waited): \(runningLeft) running, \(inFlightLeft) in flight left"
            }
        }

        private let limiters: [ConcurrencyLimiter]
        private let registries: [InFlightFutures]
        private let deadline: Duration
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
        ///   - logger: Where the outcome is logged (`info` when drained, `warning` with what was left);
        ///     `nil` (the default) logs nothing.
        public init<C: Clock<Duration>>(
            limiters: [ConcurrencyLimiter] = [],
            inFlight: [InFlightFutures] = [],
            deadline: Duration,
            clock: C = ContinuousClock(),
            logger: Logger? = nil
        ) {
            self.limiters = limiters
            self.registries = inFlight
            self.deadline = max(deadline, .zero)
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
                    logger.warning(
                        "futures not drained before the deadline",
                        metadata: [
                            "futures.waited": "\(report.waited)",
                            "futures.running_left": "\(report.runningLeft)",
                            "futures.in_flight_left": "\(report.inFlightLeft)",
                        ])
                }
            }
            finished.complete(.success(report))
        }

        /// Closes everything, waits until it is idle or the deadline has passed, and says what was left.
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
            let runningLeft = limiters.reduce(0) { $0 + $1.runningCount }
            let inFlightLeft = registries.reduce(0) { $0 + $1.count }
            return Report(
                drained: runningLeft == 0 && inFlightLeft == 0, runningLeft: runningLeft, inFlightLeft: inFlightLeft,
                waited: wait.elapsed())
        }

        /// The wait of a drain on the service's clock.
        private struct Wait: Sendable {
            /// Sleeps until the deadline, or until the task is cancelled.
            let sleep: @Sendable () async -> Void
            /// The time since the wait began.
            let elapsed: @Sendable () -> Duration
        }
    }
#endif
