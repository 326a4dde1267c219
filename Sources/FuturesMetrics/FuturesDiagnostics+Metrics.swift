#if Metrics
    import CoreMetrics
    import Futures

    extension FuturesDiagnostics {
        /// Counts every `FuturesDiagnostic` of the process in swift-metrics, then passes it on to `next`
        /// (standard error by default, as without a handler).
        ///
        /// Call it once, at start-up, after `MetricsSystem.bootstrap`. It replaces the process-wide handler
        /// (`FuturesDiagnostics.setHandler(_:)`): to count *and* log, pass the logging handler as `next`
        /// (`FuturesLogging`'s `FuturesDiagnostics.logging(to:)`). See ``metrics(dimensions:factory:forwardingTo:)``
        /// for the metric.
        public static func countInMetrics(
            dimensions: [(String, String)] = [],
            factory: any MetricsFactory = MetricsSystem.factory,
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
        /// makes the counter's handle with `factory` at each diagnostic (diagnostics are rare: each one is a
        /// misuse), and most backends hand back the same counter for the same label and dimensions. Use it
        /// with `FuturesDiagnostics.setHandler(_:)` or, for one task tree,
        /// `FuturesDiagnostics.withHandler(_:operation:)`.
        ///
        /// - Parameters:
        ///   - dimensions: More dimensions for the counter, after `kind`.
        ///   - factory: Where the counter is made: `MetricsSystem.factory` by default.
        ///   - next: Receives each diagnostic after it was counted: standard error by default
        ///     (`FuturesDiagnostics.standardErrorHandler`), another handler to log it, or `nil` to
        ///     count only.
        public static func metrics(
            dimensions: [(String, String)] = [],
            factory: any MetricsFactory = MetricsSystem.factory,
            forwardingTo next: Handler? = FuturesDiagnostics.standardErrorHandler
        ) -> Handler {
            { diagnostic in
                Counter(
                    label: "futures_diagnostics_total", dimensions: [("kind", diagnostic.kind)] + dimensions,
                    factory: factory
                ).increment()
                next?(diagnostic)
            }
        }
    }
#endif
