#if Metrics
    import CoreMetrics
    import Futures

    extension FuturesDiagnostics {
        /// Counts every `FuturesDiagnostic` of the process in swift-metrics, then passes it on to `next`
        /// (standard error by default, as without a handler).
        ///
        /// Call it once, at start-up, before or after `MetricsSystem.bootstrap`: without `factory:`, the
        /// counter goes to the bootstrapped backend once there is one (see
        /// ``metrics(dimensions:factory:forwardingTo:)``). It replaces the process-wide handler
        /// (`FuturesDiagnostics.setHandler(_:)`): to count *and* log, pass the logging handler as `next`
        /// (`FuturesLogging`'s `FuturesDiagnostics.logging(to:)`).
        public static func countInMetrics(
            dimensions: [(String, String)] = [],
            factory: (any MetricsFactory)? = nil,
            forwardingTo next: Handler? = FuturesDiagnostics.standardErrorHandler
        ) {
            setHandler(metrics(dimensions: dimensions, factory: factory, forwardingTo: next))
        }

        /// A diagnostics handler that counts each `FuturesDiagnostic`, then passes it on to `next`.
        ///
        /// The counter is `futures_diagnostics_total` (unit: diagnostics), with the dimension `kind` — the
        /// diagnostic's `FuturesDiagnostic.kind`: `unobservedFailure`, `promiseCompletedTwice`,
        /// `futureCompletedTwice`, `promiseDropped` or `contextRanTaskTwice` — then `dimensions`.
        ///
        /// The handler runs on the thread that raised the diagnostic, never under a lock of the library; it
        /// makes the counter's handle with the factory at each diagnostic (diagnostics are rare: each one is
        /// a misuse), and most backends hand back the same counter for the same label and dimensions. Use it
        /// with `FuturesDiagnostics.setHandler(_:)` or, for one task tree,
        /// `FuturesDiagnostics.withHandler(_:operation:)`.
        ///
        /// - Parameters:
        ///   - dimensions: More dimensions for the counter, after `kind`.
        ///   - factory: Where the counter is made. `nil` (the default): `MetricsSystem.factory` as it is now
        ///     when it is a backend (bootstrapped, or the task-local one of `withMetricsFactory`); made before
        ///     `MetricsSystem.bootstrap`, the bootstrapped one from the first diagnostic after it
        ///     (diagnostics raised before the bootstrap are passed on to `next` but not counted).
        ///   - next: Receives each diagnostic after it was counted: standard error by default
        ///     (`FuturesDiagnostics.standardErrorHandler`), another handler to log it, or `nil` to
        ///     count only.
        public static func metrics(
            dimensions: [(String, String)] = [],
            factory: (any MetricsFactory)? = nil,
            forwardingTo next: Handler? = FuturesDiagnostics.standardErrorHandler
        ) -> Handler {
            let bound = LateBoundMetrics<BoundFactory, Void>(factory: factory, carrying: ()) { factory, _ in
                BoundFactory(factory)
            }
            return { diagnostic in
                bound.record(
                    { metrics in
                        Counter(
                            label: "futures_diagnostics_total", dimensions: [("kind", diagnostic.kind)] + dimensions,
                            factory: metrics.factory
                        ).increment()
                    }, carrying: { _ in })
                next?(diagnostic)
            }
        }
    }
#endif
