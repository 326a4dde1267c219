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
    /// ## Cost
    /// The metric handles are made once, here, with `factory`. Each event then costs what the backend
    /// charges for one update, on the thread where the event happened, plus the limiter's clock reads; a
    /// limiter without an observer pays none of it.
    public final class LimiterMetrics: ConcurrencyLimiterObserver {
        /// The value of the `limiter` dimension.
        public let name: String
        private let running: Meter
        private let queued: Meter
        private let queueWait: Timer
        private let runDuration: Timer
        private let removed: Counter
        private let refused: Counter

        /// Creates the metrics of one limiter.
        ///
        /// - Parameters:
        ///   - name: The `limiter` dimension of every metric: which limiter this is.
        ///   - dimensions: More dimensions for every metric, after `limiter`.
        ///   - factory: Where the metrics are made: `MetricsSystem.factory` by default (the bootstrapped
        ///     one, or the task-local one of `withMetricsFactory`).
        public init(
            name: String,
            dimensions: [(String, String)] = [],
            factory: any MetricsFactory = MetricsSystem.factory
        ) {
            self.name = name
            let dimensions = [("limiter", name)] + dimensions
            running = Meter(label: "futures_limiter_running", dimensions: dimensions, factory: factory)
            queued = Meter(label: "futures_limiter_queued", dimensions: dimensions, factory: factory)
            queueWait = Timer(label: "futures_limiter_queue_wait", dimensions: dimensions, factory: factory)
            runDuration = Timer(label: "futures_limiter_run_duration", dimensions: dimensions, factory: factory)
            removed = Counter(label: "futures_limiter_removed_total", dimensions: dimensions, factory: factory)
            refused = Counter(label: "futures_limiter_refused_total", dimensions: dimensions, factory: factory)
        }

        /// Records `event` (see *Metrics*). Called by the limiter.
        public func observe(_ event: ConcurrencyLimiter.Event) {
            switch event {
            case .queued:
                queued.increment()
            case .started(let queuedFor):
                if queuedFor != nil { queued.decrement() }
                running.increment()
                queueWait.record(duration: queuedFor ?? .zero)
            case .finished(let ranFor):
                running.decrement()
                runDuration.record(duration: ranFor)
            case .removed:
                queued.decrement()
                removed.increment()
            case .refused:
                refused.increment()
            }
        }
    }
#endif
