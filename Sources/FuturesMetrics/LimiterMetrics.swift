#if Metrics
    import CoreMetrics
    import Futures
    import Metrics

    /// Records a `ConcurrencyLimiter`'s activity in swift-metrics: how many items run and wait,
    /// how long they wait and run, how many were removed unrun or refused.
    ///
    /// Pass it as the limiter's observer:
    ///
    /// ```swift
    /// let limiter = ConcurrencyLimiter(
    ///     maxConcurrent: 8, observer: LimiterMetrics(name: "crawler"))
    /// ```
    ///
    /// ## Metrics
    /// Every metric has the dimension `limiter` (the `name` given here), then the `dimensions` given here.
    ///
    /// | label | type | unit | what |
    /// |---|---|---|---|
    /// | `futures_limiter_running` | meter (gauge) | items | items running: given a slot, their work's future not completed yet |
    /// | `futures_limiter_queued` | meter (gauge) | items | items waiting for a slot |
    /// | `futures_limiter_queue_wait` | timer | nanoseconds | per started item, how long it waited for its slot (0 when it started at submission) |
    /// | `futures_limiter_run_duration` | timer | nanoseconds | per finished item, from its start until its work's future completed and its slot freed |
    /// | `futures_limiter_removed_total` | counter | items | items taken out of their queue unrun: a cancellation request while they waited, or `close()` |
    /// | `futures_limiter_refused_total` | counter | items | items submitted after `close()` |
    ///
    /// The meters move by one per event (increments and decrements), so they are exact whenever the limiter
    /// is quiet, whatever order events of different threads arrive in (see
    /// `ConcurrencyLimiterObserver`).
    ///
    /// ## Made before `MetricsSystem.bootstrap`
    /// A swift-metrics metric made before the bootstrap records into the no-op backend for good. A
    /// `LimiterMetrics` made without `factory:` does not, so it may be made at any time (a limiter in a
    /// `static let`, first touched before `main` bootstraps):
    /// - when `MetricsSystem.factory` is a backend (bootstrapped, or a task-local one of
    ///   `withMetricsFactory`) as it is made, its metrics are made at once, with that factory;
    /// - otherwise they are made at the first event after `MetricsSystem.bootstrap`, with
    ///   `MetricsSystem.factory` then (the bootstrapped one). What happened before is carried over: the meters start at the items running and queued
    ///   then, the counters at the items removed and refused so far. The timers' samples of items that
    ///   started or finished before the bootstrap are dropped.
    ///
    /// A `factory:` you pass is used at once, whatever it is (the no-op one included). Without a bootstrap,
    /// nothing is recorded.
    ///
    /// ## Cost
    /// Once the metrics are made, each event costs one atomic load plus what the backend charges for one
    /// update, on the thread where the event happened, plus the limiter's clock reads; a limiter without an
    /// observer pays none of it. Until they are made, each event takes a lock of this object and
    /// reads `MetricsSystem.factory`.
    public final class LimiterMetrics: ConcurrencyLimiterObserver {
        /// The value of the `limiter` dimension.
        public let name: String
        private let metrics: LateBoundMetrics<Handles, Carried>

        /// The metric handles of one limiter.
        private final class Handles: Sendable {
            let running: Meter
            let queued: Meter
            let queueWait: Timer
            let runDuration: Timer
            let removed: Counter
            let refused: Counter

            /// Makes the handles with `factory`, starting from what happened before (`carried`).
            init(dimensions: [(String, String)], factory: any MetricsFactory, carried: Carried) {
                running = Meter(label: "futures_limiter_running", dimensions: dimensions, factory: factory)
                queued = Meter(label: "futures_limiter_queued", dimensions: dimensions, factory: factory)
                queueWait = Timer(label: "futures_limiter_queue_wait", dimensions: dimensions, factory: factory)
                runDuration = Timer(label: "futures_limiter_run_duration", dimensions: dimensions, factory: factory)
                removed = Counter(label: "futures_limiter_removed_total", dimensions: dimensions, factory: factory)
                refused = Counter(label: "futures_limiter_refused_total", dimensions: dimensions, factory: factory)
                if carried.running != 0 { running.set(carried.running) }
                if carried.queued != 0 { queued.set(carried.queued) }
                if carried.removed != 0 { removed.increment(by: carried.removed) }
                if carried.refused != 0 { refused.increment(by: carried.refused) }
            }
        }

        /// What happened before the metrics were made (see *Made before `MetricsSystem.bootstrap`*).
        private struct Carried: Sendable {
            var running = 0
            var queued = 0
            var removed = 0
            var refused = 0

            mutating func fold(_ event: ConcurrencyLimiter.Event) {
                switch event {
                case .queued:
                    queued += 1
                case .started(let queuedFor):
                    if queuedFor != nil { queued -= 1 }
                    running += 1
                case .finished:
                    running -= 1
                case .removed:
                    queued -= 1
                    removed += 1
                case .refused:
                    refused += 1
                }
            }
        }

        /// Creates the metrics of one limiter.
        ///
        /// - Parameters:
        ///   - name: The `limiter` dimension of every metric: which limiter this is.
        ///   - dimensions: More dimensions for every metric, after `limiter`.
        ///   - factory: Where the metrics are made. `nil` (the default): `MetricsSystem.factory`, now when
        ///     it is a backend (the bootstrapped one, or the task-local one of `withMetricsFactory`), else at
        ///     the first event after `MetricsSystem.bootstrap` (see *Made before `MetricsSystem.bootstrap`*).
        public init(
            name: String,
            dimensions: [(String, String)] = [],
            factory: (any MetricsFactory)? = nil
        ) {
            self.name = name
            let dimensions = [("limiter", name)] + dimensions
            metrics = LateBoundMetrics(factory: factory, carrying: Carried()) { factory, carried in
                Handles(dimensions: dimensions, factory: factory, carried: carried)
            }
        }

        /// Records `event` (see *Metrics*). Called by the limiter, on the thread where the event happened.
        public func observe(_ event: ConcurrencyLimiter.Event) {
            metrics.record({ Self.record(event, on: $0) }, carrying: { $0.fold(event) })
        }

        private static func record(_ event: ConcurrencyLimiter.Event, on metrics: Handles) {
            switch event {
            case .queued:
                metrics.queued.increment()
            case .started(let queuedFor):
                if queuedFor != nil { metrics.queued.decrement() }
                metrics.running.increment()
                metrics.queueWait.record(duration: queuedFor ?? .zero)
            case .finished(let ranFor):
                metrics.running.decrement()
                metrics.runDuration.record(duration: ranFor)
            case .removed:
                metrics.queued.decrement()
                metrics.removed.increment()
            case .refused:
                metrics.refused.increment()
            }
        }
    }
#endif
