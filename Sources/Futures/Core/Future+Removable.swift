extension Future {
    /// Registers `handler` to run at the first cancellation request, as an entry that can be taken back:
    /// returns a function that removes it again (releasing `handler`), or `nil` if the handler already ran
    /// (cancellation was requested) or will never run (completed). What a ``CancellationToken`` linked to a
    /// future registers.
    func registerCancellationHandler(_ handler: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
        let entry = RemovableEntry<T, E>(.cancellation(handler))
        guard addRemovable(entry) else { return nil }
        return { [weak self] in self?.removeEntry(entry) }
    }

    /// Registers `body` to run with the result on `context`, like ``whenComplete(_:_:)``, as an entry
    /// that can be taken back with ``removeEntry(_:)`` in O(1) while the future is pending (a cancelled
    /// `CancelToken` registration, an invalidated token's registration, a cancelled subscription).
    ///
    /// - Returns: The entry, or `nil` if the future was already completed: `body` then ran (immediate
    ///   context, through the trampoline) or was handed to `context` before this method returned.
    @usableFromInline
    @discardableResult
    func whenCompleteRemovable(
        _ context: ExecutionContext,
        _ body: @escaping @Sendable (Result<T, E>) -> Void
    ) -> RemovableEntry<T, E>? {
        #if ServiceContext
            // The trace context travels with the callback (see `ContextTravel`).
            let body = ContextTravel.isActive ? ContextTravel.bound(body) : body
        #endif
        let entry = RemovableEntry<T, E>(.callback(context, body))
        return addRemovable(entry) ? entry : nil
    }

    /// Registers `body` through a gated context whose gate belongs to one or more ``InvalidationToken``s:
    /// the registration is handed to each token, so that `invalidate()` removes it from this pending
    /// future and releases `body` at once; running it makes the tokens forget it (O(1)).
    ///
    /// The gate is still checked when the callback runs, on the underlying context. A token that is
    /// already invalid stores nothing: `body` is released before this method returns.
    ///
    /// - Returns: `nil` (and registers nothing) if `context` has no invalidation token behind it; the
    ///   caller then registers `body` the ordinary way. Else what the registration saw, with the entry
    ///   the consumer asks through (see ``Registration/entry``).
    @usableFromInline
    func whenCompleteGatedTracked(
        _ context: ExecutionContext,
        _ body: @escaping @Sendable (Result<T, E>) -> Void
    ) -> Registration? {
        let trackers = context.invalidationTrackers
        if trackers.isEmpty { return nil }
        return whenCompleteTracked(context, trackers, cancelToken: .unused, onCancel: nil, body)
    }

    /// Registers `body` on the context under `context`'s gate, handed to `trackers` (and to
    /// `cancelToken` unless unused). See ``whenCompleteGatedTracked(_:_:)``.
    ///
    /// - Returns: What the registration saw. A registration through a token that is already invalid is
    ///   no consumer: it stores nothing and asks nothing (`acceptsCancellation` is `false`).
    func whenCompleteTracked(
        _ context: ExecutionContext,
        _ trackers: [InvalidationToken],
        cancelToken: CancelToken,
        onCancel: (@Sendable () -> Void)?,
        _ body: @escaping @Sendable (Result<T, E>) -> Void
    ) -> Registration {
        let (base, isOpen) = context.ungated
        let gated: @Sendable (Result<T, E>) -> Void
        if let isOpen {
            gated = { result in if isOpen() { body(result) } }
        } else {
            gated = body
        }
        let callback = CancellableCallback(
            body: gated, onCancel: onCancel, settled: InvalidationToken.forgetting(in: trackers))
        if !cancelToken.isUnused { cancelToken.register(callback, on: self) }
        for tracker in trackers where !tracker.track(callback) {
            // Already invalid: nothing is stored, the body is released now.
            callback.invalidate()
            return Registration(hasExtras: false, acceptsCancellation: false)
        }
        return callback.register(on: self, base)
    }
}
