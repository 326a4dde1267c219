#if Metrics
    import CoreMetrics
    import Futures

    /// Samples how many futures are pending into a swift-metrics gauge, while pending-future tracking
    /// (`FuturesDiagnostics.tracksPendingFutures`) is on.
    ///
    /// ```swift
    /// FuturesDiagnostics.tracksPendingFutures = true
    /// let gauge = PendingFuturesGauge()
    /// // samples until cancelled
    /// let sampling = Task { await gauge.run(every: .seconds(10)) }
    /// ```
    ///
    /// ## Metric
    /// `futures_pending` (gauge; unit: futures), with the given `dimensions`: the tracked futures pending at
    /// the sample (`FuturesDiagnostics.pendingFuturesCount`, chains and dependents together). It is 0 while
    /// tracking is off, and misses futures created while it was off or left out because the registry was
    /// full. Tracking costs a few allocations per future: turn it on to find a leak or a hang (a gauge
    /// that only grows), not for every request of a production service.
    ///
    /// Made without `factory:` before `MetricsSystem.bootstrap`, the gauge is made at the first sample
    /// after the bootstrap (samples before it are dropped), as ``LimiterMetrics`` explains.
    public struct PendingFuturesGauge: Sendable {
        private let gauge: LateBoundMetrics<Gauge, Void>

        /// Creates the gauge.
        ///
        /// - Parameters:
        ///   - dimensions: The gauge's dimensions.
        ///   - factory: Where the gauge is made. `nil` (the default): `MetricsSystem.factory`, now when it is
        ///     a backend (bootstrapped, or task-local), else at the first sample after
        ///     `MetricsSystem.bootstrap`.
        public init(dimensions: [(String, String)] = [], factory: (any MetricsFactory)? = nil) {
            gauge = LateBoundMetrics(factory: factory, carrying: ()) { factory, _ in
                Gauge(label: "futures_pending", dimensions: dimensions, factory: factory)
            }
        }

        /// Records one sample now, on the calling thread (one short lock hold of the registry).
        public func record() {
            let count = FuturesDiagnostics.pendingFuturesCount
            gauge.record({ $0.record(count) }, carrying: { _ in })
        }

        /// Records a sample now and then every `interval` on `clock`, until the calling task is cancelled;
        /// then returns.
        ///
        /// - Parameters:
        ///   - interval: The time between samples; clamped to at least 1 ms.
        ///   - clock: The clock the interval is measured on (`ContinuousClock()` by default).
        public func run<C: Clock<Duration>>(every interval: Duration, clock: C = ContinuousClock()) async {
            let interval = max(interval, .milliseconds(1))
            var next = clock.now
            while !Task.isCancelled {
                record()
                next = next.advanced(by: interval)
                do { try await clock.sleep(until: next, tolerance: nil) } catch { return }
            }
        }
    }
#endif
