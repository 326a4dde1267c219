#if ServiceLifecycle
    import Futures

    /// The futures a service has started and not seen complete: a registry to drain on shutdown.
    ///
    /// A service adds each piece of work it starts; the registry forgets a future once it completes.
    /// ``close()`` (which ``DrainingService`` calls on graceful shutdown) refuses new work and asks what is
    /// in flight to cancel; ``whenIdle()`` completes once everything added has completed.
    ///
    /// ```swift
    /// let inFlight = InFlightFutures()
    /// func handle(_ request: Request) -> Future<Response, any Error> {
    ///     inFlight.add(render(request))  // forgotten when it completes
    /// }
    /// ```
    ///
    /// ## Whose work it asks
    /// ``close()`` calls `requestCancellation()` on each future added: an explicit request on a future the
    /// service owns (GUARANTEES.md G8), which runs its producer's cancellation handlers — or, on a derived
    /// future, reaches its sources as one consumer each. Add the futures your service started. To withdraw
    /// only the service's interest in work that others share (a cache fill another caller waits for), add
    /// a handle of its own, `shared.consumer()`: the shared work is then asked only once every consumer has
    /// asked.
    ///
    /// ## Memory
    /// The registry holds each added future until it completes (so that it can ask it, and so that
    /// ``whenIdle()`` can count it), and watches it with an observer that is not a consumer (it never holds
    /// back a cancellation request). A future that never completes stays until the registry is released.
    public final class InFlightFutures: Sendable {
        private struct State: Sendable {
            /// The futures in flight, each as the request that asks it to cancel, by registration number.
            var entries: [UInt64: @Sendable () -> Void] = [:]
            var nextID: UInt64 = 0
            var isClosed = false
            /// The future of ``whenIdle()``, while someone waits for the registry to empty.
            var idleWaiter: Future<Void, Never>?
        }

        private let state = LockedBox(State())

        /// Creates an empty, open registry.
        public init() {}

        /// How many added futures have not completed yet.
        public var count: Int { state.withValue { $0.entries.count } }

        /// Whether ``close()`` was called.
        public var isClosed: Bool { state.withValue { $0.isClosed } }

        /// Adds `future` to the work in flight, until it completes, and returns it (to chain on).
        ///
        /// After ``close()`` the future is not added: it is asked to cancel at once (with
        /// `requestCancellation()`), like the work that was in flight when the registry closed, and
        /// returned. A completed future is not kept.
        ///
        /// - Returns: `future` itself.
        @discardableResult
        public func add<T, E>(_ future: Future<T, E>) -> Future<T, E> {
            let ask: @Sendable () -> Void = { future.requestCancellation() }
            let id = state.withValue { state -> UInt64? in
                guard !state.isClosed else { return nil }
                state.nextID &+= 1
                state.entries[state.nextID] = ask
                return state.nextID
            }
            guard let id else {
                future.requestCancellation()
                return future
            }
            // An observer, not a consumer: it never holds back a cancellation request.
            future.observe(immediateExecutionContext) { [weak self] _ in self?.remove(id) }
            return future
        }

        /// Refuses new work and asks every future in flight to cancel, with `requestCancellation()` (see
        /// *Whose work it asks*). Futures added later are asked at once and not kept. Calling it again does
        /// nothing.
        ///
        /// The requests run on the calling thread, after the registry's lock is released; each producer
        /// decides how its work ends, and its future leaves the registry when it completes.
        public func close() {
            let asks = state.withValue { state -> [@Sendable () -> Void] in
                guard !state.isClosed else { return [] }
                state.isClosed = true
                return Array(state.entries.values)
            }
            for ask in asks { ask() }
        }

        /// A future that completes when no added future is in flight: at once if none is, else when the
        /// last one completes.
        ///
        /// After ``close()`` nothing new is added, so it completes once the work in flight has drained. On
        /// an open registry it completes the next time it is empty. Calls made meanwhile share one future;
        /// its callbacks run on the thread that completed the last future in flight. A cancellation request
        /// on it does nothing (it cannot fail).
        public func whenIdle() -> Future<Void, Never> {
            let fresh = Future<Void, Never>()  // allocated before locking
            let waiter = state.withValue { state -> Future<Void, Never>? in
                guard !state.entries.isEmpty else { return nil }
                if let waiter = state.idleWaiter { return waiter }
                state.idleWaiter = fresh
                return fresh
            }
            return waiter ?? Future(value: ())
        }

        /// Forgets the future registered as `id` (it completed); completes ``whenIdle()``'s future when it
        /// was the last. What is removed is released after the lock.
        private func remove(_ id: UInt64) {
            let (removed, idle) = state.withValue { state -> ((@Sendable () -> Void)?, Future<Void, Never>?) in
                let removed = state.entries.removeValue(forKey: id)
                guard state.entries.isEmpty, let idle = state.idleWaiter else { return (removed, nil) }
                state.idleWaiter = nil
                return (removed, idle)
            }
            _ = consume removed
            idle?.complete(.success(()))
        }
    }
#endif
