/// A one-shot callback registered with a ``CancelToken`` or through an ``InvalidationToken``'s context.
///
/// The future's list holds a removable entry (``Future/whenCompleteRemovable(_:_:)``) that calls
/// ``run(_:)``. Cancelling takes the body out (so it never runs, even if its entry was already handed
/// to a queue), removes the entry from the pending future and releases the body and everything it
/// captured, all after unlocking. Running it also tells the token that registered it (`settled`), so
/// an invalidation token forgets it at once.
///
/// No cycle: the entry's closure holds this object, and this object holds the entry and the future
/// weakly, so a future dropped while pending frees its entry and this callback (a ``CancelToken``
/// forgets it in its next sweep).
final class CancellableCallback<T: Sendable, E: Error>: CancellableRegistration, @unchecked Sendable {
    // `@unchecked Sendable`: the mutable fields are only read and written inside `lock.withLock`; the
    // closures are `@Sendable` and are called (and released) after unlocking.
    private let lock = ParkingLock()
    private var body: (@Sendable (Result<T, E>) -> Void)?
    private var onCancel: (@Sendable () -> Void)?
    /// Called once, after the callback ran or was cancelled, with its identity (tells an invalidation
    /// token to forget it).
    private var settled: (@Sendable (ObjectIdentifier) -> Void)?
    private weak var future: Future<T, E>?
    private weak var entry: RemovableEntry<T, E>?
    /// Whether it was registered on a future that was pending: its liveness then also needs the future.
    private var attached = false

    init(
        body: @escaping @Sendable (Result<T, E>) -> Void,
        onCancel: (@Sendable () -> Void)?,
        settled: (@Sendable (ObjectIdentifier) -> Void)? = nil
    ) {
        self.body = body
        self.onCancel = onCancel
        self.settled = settled
    }

    /// Whether it may still run: not run, not cancelled, and its future (once registered) still there.
    var isLive: Bool {
        lock.withLock { body != nil && (!attached || future != nil) }
    }

    /// Registers this callback on `future`, on `context`, through a removable entry: one consumer of
    /// `future`, which asks through that entry (``Future/consumerAsks(through:)``).
    ///
    /// - Returns: What the registration saw, with the entry through which this consumer asks.
    @discardableResult
    func register(on future: Future<T, E>, _ context: ExecutionContext) -> Future<T, E>.Registration {
        guard let entry = future.whenCompleteRemovable(context, { [self] result in self.run(result) }) else {
            // Completed: it ran (or was handed out); there is nothing to ask.
            return Future<T, E>.Registration(hasExtras: false, acceptsCancellation: false)
        }
        let cancelledMeanwhile = lock.withLock { () -> Bool in
            if body == nil { return true }
            self.future = future
            self.entry = entry
            attached = true
            return false
        }
        // Cancelled (or run) between registering and here: nobody else will take the entry back.
        if cancelledMeanwhile {
            future.removeEntry(entry)
            return Future<T, E>.Registration(hasExtras: false, acceptsCancellation: false)
        }
        entry.askedFuture = future
        let facts = future.registrationLocked()
        return Future<T, E>.Registration(
            hasExtras: facts.hasExtras, acceptsCancellation: facts.acceptsCancellation, entry: entry)
    }

    /// Runs the body once, unless cancelled; releases it either way (after it returned).
    func run(_ value: Result<T, E>) {
        let taken = lock.withLock { () -> Closures in
            future = nil
            entry = nil
            return takeClosures()
        }
        let (body, onCancel, settled) = taken.unpacked()
        _ = consume onCancel
        body?(value)
        settled?(ObjectIdentifier(self))
    }

    /// The closures the callback holds, moved out together: `body`, `onCancel`, `settled`.
    ///
    /// A struct, not a tuple, and filled without `Optional.take()`: this class's methods run unspecialised
    /// (a token reaches them through `any CancellableRegistration`), and there a closure passed through a
    /// generic parameter is re-abstracted, a heap-allocated thunk each time: two per closure for a tuple
    /// returned through `withLock`'s `R`, one for `take()`'s `Wrapped` (six mallocs per cancelled
    /// registration, measured). A struct crosses `withLock` as it is.
    private struct Closures {
        let body: (@Sendable (Result<T, E>) -> Void)?
        let onCancel: (@Sendable () -> Void)?
        let settled: (@Sendable (ObjectIdentifier) -> Void)?

        /// The three closures, for the caller to release one by one.
        consuming func unpacked() -> (
            (@Sendable (Result<T, E>) -> Void)?, (@Sendable () -> Void)?, (@Sendable (ObjectIdentifier) -> Void)?
        ) {
            (body, onCancel, settled)
        }
    }

    /// Moves the closures out, leaving `nil` (called under the lock; the caller releases them after it).
    private func takeClosures() -> Closures {
        let taken = Closures(body: body, onCancel: onCancel, settled: settled)
        body = nil
        onCancel = nil
        settled = nil
        return taken
    }

    func cancel() -> Bool {
        switchOff(runningOnCancel: true)
    }

    /// Switches it off like ``cancel()`` but without running `onCancel` (an invalidation token's way:
    /// a callback skipped by invalidation leaves its transform's future pending, as documented).
    func invalidate() {
        _ = switchOff(runningOnCancel: false)
    }

    private func switchOff(runningOnCancel: Bool) -> Bool {
        let (taken, future, entry) = lock.withLock { () -> (Closures, Future<T, E>?, RemovableEntry<T, E>?) in
            let future = self.future
            let entry = self.entry
            self.future = nil
            self.entry = nil
            return (takeClosures(), future, entry)
        }
        let (body, onCancel, settled) = taken.unpacked()
        let wasLive = body != nil
        // Take the entry back from the pending future: it and its closure are released now, not at
        // completion. Then release the body (and what it captured), outside every lock.
        if let future, let entry { future.removeEntry(entry) }
        _ = consume body
        if wasLive && runningOnCancel { onCancel?() }
        _ = consume onCancel
        settled?(ObjectIdentifier(self))
        return wasLive
    }
}

extension Future {
    /// Registers `body` like ``whenComplete(_:_:)``, switched off by `cancel(cancelToken)`.
    ///
    /// `onCancel` runs (on the cancelling thread) if the registration is cancelled before it ran.
    /// Cancelling removes the registration from this (pending) future at once and releases `body`.
    /// A context from an ``InvalidationToken`` also hands the registration to that token.
    @inlinable
    func whenComplete(
        _ context: ExecutionContext,
        cancelToken: CancelToken,
        onCancel: (@Sendable () -> Void)? = nil,
        _ body: @escaping @Sendable (Result<T, E>) -> Void
    ) {
        if cancelToken.isUnused {
            whenComplete(context, body)
        } else {
            whenCompleteCancellable(context, cancelToken: cancelToken, onCancel: onCancel, body)
        }
    }

    /// ``whenComplete(_:cancelToken:onCancel:_:)`` with a token in use: the registration is handed to it.
    ///
    /// - Returns: What the registration saw, with the entry the consumer asks through.
    @usableFromInline
    @discardableResult
    func whenCompleteCancellable(
        _ context: ExecutionContext,
        cancelToken: CancelToken,
        onCancel: (@Sendable () -> Void)?,
        _ body: @escaping @Sendable (Result<T, E>) -> Void
    ) -> Registration {
        let trackers = context.invalidationTrackers
        if trackers.isEmpty {
            let callback = CancellableCallback(body: body, onCancel: onCancel)
            cancelToken.register(callback, on: self)
            return callback.register(on: self, context)
        } else {
            return whenCompleteTracked(context, trackers, cancelToken: cancelToken, onCancel: onCancel, body)
        }
    }

    /// Unregisters every callback and combinator registered on this future with `cancelToken`.
    ///
    /// A cancelled callback never runs afterwards (the check happens when its context runs it) and
    /// what it captured is released at once. A combinator whose closure is cancelled (`map`,
    /// `flatMap`, `recover`, …) first cancels the same token on the future it returned, then fails
    /// that future with ``FuturesError/cancelled``, so a chain built with one token goes quiet and no
    /// other waiter hangs. Thread-safe; the future's result is never affected.
    ///
    /// - Returns: `true` if at least one registration made with `cancelToken` on this future had not
    ///   run yet; `false` if there was none (never registered, already ran, or already cancelled).
    @discardableResult
    @usableFromInline
    package func cancel(_ cancelToken: CancelToken) -> Bool {
        cancelToken.cancelRegistrations(on: self)
    }

    /// Registers `completion` to run with the result (SimpleFutures' form, with a ``CancelToken``).
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future unregisters `completion`.
    ///   - completion: Receives the result, on `context` (after the callbacks registered before it on the
    ///     same serial context; callbacks on other contexts may run at the same time).
    /// - Returns: This future.
    @_disfavoredOverload
    @discardableResult
    @usableFromInline
    package func onComplete(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        completion: @escaping @Sendable (Result<T, E>) -> Void
    ) -> Self {
        whenComplete(context, cancelToken: cancelToken, completion)
        return self
    }

    /// Registers `completion` to run with the value on success (SimpleFutures' form); never runs on failure.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future unregisters `completion`.
    ///   - completion: Receives the value.
    /// - Returns: This future.
    @_disfavoredOverload
    @discardableResult
    @usableFromInline
    package func onSuccess(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        completion: @escaping @Sendable (T) -> Void
    ) -> Self {
        whenComplete(context, cancelToken: cancelToken) { result in
            if case .success(let value) = result { completion(value) }
        }
        return self
    }

    /// Registers `completion` to run with the error on failure (SimpleFutures' form); never runs on success.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future unregisters `completion`.
    ///   - completion: Receives the error.
    /// - Returns: This future.
    @_disfavoredOverload
    @discardableResult
    @usableFromInline
    package func onFailure(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        completion: @escaping @Sendable (E) -> Void
    ) -> Self {
        whenComplete(context, cancelToken: cancelToken) { result in
            if case .failure(let error) = result { completion(error) }
        }
        return self
    }

    /// Runs `apply` with the value on success (SimpleFutures' `forEach`; the same as `onSuccess`).
    ///
    /// - Parameters:
    ///   - context: Where `apply` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future unregisters `apply`.
    ///   - apply: Receives the value; never runs on failure.
    @usableFromInline
    package func forEach(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        apply: @escaping @Sendable (T) -> Void
    ) {
        onSuccess(context: context, cancelToken: cancelToken, completion: apply)
    }
}
