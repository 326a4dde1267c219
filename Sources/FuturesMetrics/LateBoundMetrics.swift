#if Metrics
    import CoreMetrics
    import Futures
    import Synchronization

    /// Metric handles that are made once the metrics system has a backend, and what happened before.
    ///
    /// swift-metrics makes a metric's handler once, with the factory current then: a metric made before
    /// `MetricsSystem.bootstrap` records into the no-op handler for the rest of the process. The metrics of
    /// this module (a limiter's, often made in a `static let` at an unpredictable time; the diagnostics
    /// counter; the pending-futures gauge) bind instead:
    /// - to the `factory` they are given, at once (the no-op one included: an explicit choice);
    /// - without one, to `MetricsSystem.factory` at once when it is a backend (bootstrapped, or a
    ///   task-local one of `withMetricsFactory`);
    /// - else at their first use after the bootstrap. Until then each use folds its event into `Carried`
    ///   (a limiter's running and queued items, its removals and refusals), which `make` records into the
    ///   new handles before anything else can.
    ///
    /// Once bound, a use costs one atomic load. While unbound, a use takes this object's lock and reads
    /// `MetricsSystem.factory` (swift-metrics' read lock). `make` runs once, under this object's lock
    /// (it calls the backend's factory, never code of the library's users).
    final class LateBoundMetrics<Handles: AnyObject & Sendable, Carried: Sendable>: Sendable {
        private let bound = AtomicLazyReference<Handles>()
        private let carried: LockedBox<Carried>
        private let make: @Sendable (any MetricsFactory, Carried) -> Handles

        /// Binds to `factory` now, or to the metrics system's backend now when it has one; else later.
        init(
            factory: (any MetricsFactory)?,
            carrying initial: Carried,
            make: @escaping @Sendable (any MetricsFactory, Carried) -> Handles
        ) {
            self.make = make
            carried = LockedBox(initial)
            if let factory = factory ?? Self.backendFactory {
                _ = bound.storeIfNil(make(factory, initial))
            }
        }

        /// `MetricsSystem.factory` when it is a backend; `nil` while it is swift-metrics' no-op factory.
        static var backendFactory: (any MetricsFactory)? {
            let factory = MetricsSystem.factory
            return factory is NOOPMetricsHandler ? nil : factory
        }

        /// Whether the handles are made.
        var isBound: Bool { bound.load() != nil }

        /// Runs `use` with the handles, making them first when the metrics system has had a backend since;
        /// while it has none, lets `carry` fold the event into the carried state instead.
        func record(_ use: (Handles) -> Void, carrying carry: (inout Carried) -> Void) {
            if let handles = bound.load() {
                use(handles)
                return
            }
            // Under the lock, so that every event is either carried (and recorded by `make`) or recorded on
            // the handles after they are published, never both and never neither.
            let handles = carried.withValue { state -> Handles? in
                if let handles = bound.load() { return handles }
                guard let factory = Self.backendFactory else {
                    carry(&state)
                    return nil
                }
                return bound.storeIfNil(make(factory, state))
            }
            if let handles { use(handles) }
        }
    }

    /// A metrics factory held by reference: the handle of metrics made per event (the diagnostics counter).
    final class BoundFactory: Sendable {
        let factory: any MetricsFactory

        init(_ factory: any MetricsFactory) {
            self.factory = factory
        }
    }
#endif
