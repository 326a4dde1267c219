#if ServiceLifecycle
    import Futures

    /// The futures a service has started and not seen complete: a registry to drain on shutdown.
    ///
    /// A service adds each piece of work it starts and uses the future ``add(_:file:line:)`` returns in its
    /// place; the registry forgets a future once it completes. ``close()`` (which ``DrainingService`` calls
    /// on graceful shutdown) refuses new work and asks what is in flight to cancel; ``whenIdle()`` completes
    /// once everything added has completed.
    ///
    /// ```swift
    /// let inFlight = InFlightFutures()
    /// func handle(_ request: Request) -> Future<Response, any Error> {
    ///     inFlight.add(render(request))  // forgotten when it completes
    /// }
    /// ```
    ///
    /// ## Every future completes
    /// The returned future completes with the added future's result, or, when a drain gives up on it at
    /// shutdown (``DrainingService``, once its deadline passed), with `FuturesError.shutDown` at
    /// once, while the work may still run. So its failure type can say it: `any Error` from
    /// ``add(_:file:line:)``, or the added future's own `E` from ``add(_:failingWith:file:line:)``, which
    /// fails with the error given.
    ///
    /// ## Whose work it asks
    /// ``close()`` calls `requestCancellation()` on each future added: an explicit request on a future the
    /// service owns (GUARANTEES.md G8), which runs its producer's cancellation handlers — or, on a derived
    /// future, reaches its sources as one consumer each. A request on the returned future is the same
    /// request on the added one. Add the futures your service started. To withdraw only the service's
    /// interest in work that others share (a cache fill another caller waits for), add a handle of its
    /// own, `shared.consumer()`: the shared work is then asked only once every consumer has asked.
    ///
    /// ## Memory and failures
    /// The registry holds each added future until it completes (so that it can ask it, and so that
    /// ``whenIdle()`` can count it), and watches it with an observer that is not a consumer (it never holds
    /// back a cancellation request). A future that never completes stays until the registry is released
    /// or a drain ends it. The returned future stands for the added one's failure too: handling it (a
    /// callback, `get()`, a derived future) is handling the added one's, and a failure nobody handles is
    /// reported once, for the returned future (`FuturesDiagnostics.unobservedFailures`).
    public final class InFlightFutures: Sendable {
        private struct State: Sendable {
            /// The futures in flight, by registration number.
            var entries: [UInt64: any InFlightEntry] = [:]
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

        /// Adds `future` to the work in flight, until it completes, and returns a future to use in its place,
        /// of the same value, whose failure type can say that a drain ended it.
        ///
        /// The returned future completes with `future`'s result, on the thread that completes `future`; or,
        /// when a drain gives up on it at shutdown (see *Every future completes*), fails at once with
        /// `FuturesError.shutDown`. A cancellation request on it is a request on `future`.
        ///
        /// After ``close()`` the future is not added: it is asked to cancel at once (with
        /// `requestCancellation()`), like the work that was in flight when the registry closed, and the
        /// returned future follows it. A completed future is not kept.
        ///
        /// - Parameters:
        ///   - future: The work's future.
        ///   - file: Where it was added, for a drain's report of what it left.
        ///   - line: The line of that call.
        /// - Returns: A future of `future`'s result, or of `FuturesError.shutDown`. Discard it only
        ///   when you keep waiting for `future` itself (a consumer handle of shared work): a drain that
        ///   ends the work ends the returned future, not `future`.
        @discardableResult
        public func add<T, W>(
            _ future: Future<T, W>, file: StaticString = #fileID, line: UInt = #line
        ) -> Future<T, any Error> {
            track(future, shutdownError: FuturesError.shutDown, lift: { $0 }, file: file, line: line)
        }

        /// Adds `future` to the work in flight, until it completes, and returns a future of the same type to
        /// use in its place, which fails with `shutdownError` when a drain ends it.
        ///
        /// As ``add(_:file:line:)``, keeping `E`: when a drain gives up on the future at shutdown, the
        /// returned future fails at once with `shutdownError`.
        ///
        /// - Parameters:
        ///   - future: The work's future.
        ///   - shutdownError: The failure of the returned future when a drain ends it.
        ///   - file: Where it was added, for a drain's report of what it left.
        ///   - line: The line of that call.
        /// - Returns: A future of `future`'s result, or of `shutdownError`.
        @discardableResult
        public func add<T, E>(
            _ future: Future<T, E>, failingWith shutdownError: E, file: StaticString = #fileID, line: UInt = #line
        ) -> Future<T, E> {
            track(future, shutdownError: shutdownError, lift: { $0 }, file: file, line: line)
        }

        /// Refuses new work and asks every future in flight to cancel, with `requestCancellation()` (see
        /// *Whose work it asks*). Futures added later are asked at once and not kept. Calling it again does
        /// nothing.
        ///
        /// The requests run on the calling thread, after the registry's lock is released; each producer
        /// decides how its work ends, and its future leaves the registry when it completes.
        public func close() {
            let entries = state.withValue { state -> [any InFlightEntry] in
                guard !state.isClosed else { return [] }
                state.isClosed = true
                return Array(state.entries.values)
            }
            for entry in entries { entry.ask() }
        }

        /// A future that completes when no added future is in flight: at once if none is, else when the
        /// last one completes (after the future ``add(_:file:line:)`` returned for it has completed).
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

        // MARK: - Shutdown

        /// The futures in flight now, oldest first (a snapshot: each may complete at any time).
        func pendingLeftovers() -> [DrainingService.Leftover] {
            let entries = state.withValue { Array($0.entries.values) }
            return Self.leftovers(entries, at: .now)
        }

        /// Closes the registry (``close()``), then ends every future still in flight: the future
        /// ``add(_:file:line:)`` returned for it fails at once with its shutdown error, and it leaves the
        /// registry (``whenIdle()`` completes). The work is not waited for: when its future completes later,
        /// nothing more happens. Returns what it ended, oldest first. The futures' callbacks run on the
        /// calling thread (or their contexts), after the registry's lock is released.
        func endPending() -> [DrainingService.Leftover] {
            close()
            let (entries, idle) = state.withValue { state -> ([any InFlightEntry], Future<Void, Never>?) in
                let entries = Array(state.entries.values)
                state.entries.removeAll()
                defer { state.idleWaiter = nil }
                return (entries, state.idleWaiter)
            }
            let now = ContinuousClock.now
            for entry in entries { entry.end() }
            idle?.complete(.success(()))
            return Self.leftovers(entries, at: now)
        }

        private static func leftovers(
            _ entries: [any InFlightEntry], at now: ContinuousClock.Instant
        ) -> [DrainingService.Leftover] {
            entries.sorted { $0.added < $1.added }.map { entry in
                DrainingService.Leftover(
                    owner: .inFlightFutures, file: entry.file, line: entry.line, age: now - entry.added)
            }
        }

        // MARK: - Internal

        /// Registers `source` (unless closed), and returns the future that stands for it.
        private func track<T, W, E>(
            _ source: Future<T, W>, shutdownError: E, lift: @escaping @Sendable (W) -> E, file: StaticString,
            line: UInt
        ) -> Future<T, E> {
            let output = Future<T, E>.produced("add", file: file, line: line)
            // The stand-in carries the source's failure: handling it is handling the source's, and a failure
            // nobody handles is reported once, for the stand-in, not for the source.
            source.markObserved()
            // A request on the stand-in is a request on the added future.
            output.onCancellationRequested { [weak source] in source?.requestCancellation() }
            let entry = InFlightEntryOf(
                source: source, output: output, shutdownError: shutdownError, file: file, line: line)
            let id = state.withValue { state -> UInt64? in
                guard !state.isClosed else { return nil }
                state.nextID &+= 1
                state.entries[state.nextID] = entry
                return state.nextID
            }
            if id == nil { source.requestCancellation() }
            // An observer, not a consumer: it never holds back a cancellation request.
            source.observe(immediateExecutionContext) { [weak self] result in
                let idle = id.flatMap { self?.remove($0) }
                _ = output.complete(result.mapError(lift))
                idle?.complete(.success(()))
            }
            return output
        }

        /// Forgets the future registered as `id` (it completed); returns ``whenIdle()``'s future to complete
        /// when it was the last. What is removed is released after the lock.
        private func remove(_ id: UInt64) -> Future<Void, Never>? {
            let (removed, idle) = state.withValue { state -> ((any InFlightEntry)?, Future<Void, Never>?) in
                let removed = state.entries.removeValue(forKey: id)
                guard removed != nil, state.entries.isEmpty, let idle = state.idleWaiter else { return (removed, nil) }
                state.idleWaiter = nil
                return (removed, idle)
            }
            _ = consume removed
            return idle
        }
    }

    /// A future in flight, seen by the registry without its types.
    private protocol InFlightEntry: Sendable {
        /// Where it was added, and when.
        var file: String { get }
        var line: UInt { get }
        var added: ContinuousClock.Instant { get }
        /// Requests cancellation of the added future.
        func ask()
        /// Fails the stand-in with the shutdown error (the added future may still complete later).
        func end()
    }

    private struct InFlightEntryOf<T: Sendable, W: Error, E: Error>: InFlightEntry {
        let source: Future<T, W>
        let output: Future<T, E>
        let shutdownError: E
        let site: StaticString
        let line: UInt
        let added = ContinuousClock.now

        init(source: Future<T, W>, output: Future<T, E>, shutdownError: E, file: StaticString, line: UInt) {
            self.source = source
            self.output = output
            self.shutdownError = shutdownError
            self.site = file
            self.line = line
        }

        var file: String { "\(site)" }

        func ask() { source.requestCancellation() }

        func end() { _ = output.complete(.failure(shutdownError)) }
    }
#endif
