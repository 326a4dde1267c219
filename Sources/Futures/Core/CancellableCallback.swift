/// A one-shot callback registered with a ``CancelToken``.
///
/// The future's own callback list holds a small wrapper that calls ``run(_:)``; cancelling clears the
/// body (releasing everything it captured) so the wrapper then does nothing. The check happens when
/// the callback's turn comes, on its context, so a callback cancelled after it was handed to a queue
/// still never runs.
final class CancellableCallback<Value: Sendable>: CancellableRegistration, @unchecked Sendable {
    // `@unchecked Sendable`: `body` and `onCancel` are only read and written between `lock.lock()` and
    // `lock.unlock()`; the closures themselves are `@Sendable`.
    private let lock = SpinLock()
    private var body: (@Sendable (Value) -> Void)?
    private var onCancel: (@Sendable () -> Void)?

    init(body: @escaping @Sendable (Value) -> Void, onCancel: (@Sendable () -> Void)?) {
        self.body = body
        self.onCancel = onCancel
    }

    var isLive: Bool {
        lock.lock()
        defer { lock.unlock() }
        return body != nil
    }

    /// Runs the body once, unless cancelled; releases it either way.
    func run(_ value: Value) {
        lock.lock()
        let body = self.body
        self.body = nil
        self.onCancel = nil
        lock.unlock()
        body?(value)
    }

    func cancel() -> Bool {
        lock.lock()
        let wasLive = body != nil
        body = nil
        let onCancel = self.onCancel
        self.onCancel = nil
        lock.unlock()
        if wasLive { onCancel?() }
        return wasLive
    }
}

extension Future {
    /// Registers `body` like ``whenComplete(_:_:)``, switched off by `cancel(cancelToken)`.
    ///
    /// `onCancel` runs (on the cancelling thread) if the registration is cancelled before it ran.
    func whenComplete(
        _ context: ExecutionContext,
        cancelToken: CancelToken,
        onCancel: (@Sendable () -> Void)? = nil,
        _ body: @escaping @Sendable (Result<T, E>) -> Void
    ) {
        if cancelToken.isUnused {
            whenComplete(context, body)
            return
        }
        let callback = CancellableCallback(body: body, onCancel: onCancel)
        cancelToken.register(callback, on: self)
        whenComplete(context) { callback.run($0) }
    }

    /// Unregisters every callback and combinator registered on this future with `cancelToken`.
    ///
    /// A cancelled callback never runs afterwards (the check happens in its turn, on its context) and
    /// what it captured is released at once. A combinator whose closure is cancelled (`map`,
    /// `flatMap`, `recover`, …) first cancels the same token on the future it returned, then fails
    /// that future with ``FuturesError/cancelled``, so a chain built with one token goes quiet and no
    /// other waiter hangs. Thread-safe; the future's result is never affected.
    ///
    /// - Returns: `true` if at least one registration made with `cancelToken` on this future had not
    ///   run yet; `false` if there was none (never registered, already ran, or already cancelled).
    @discardableResult
    public func cancel(_ cancelToken: CancelToken) -> Bool {
        cancelToken.cancelRegistrations(on: self)
    }

    /// Registers `completion` to run with the result (SimpleFutures' form, with a ``CancelToken``).
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future unregisters `completion`.
    ///   - completion: Receives the result, in its turn among this future's callbacks.
    /// - Returns: This future.
    @_disfavoredOverload
    @discardableResult
    public func onComplete(
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
    public func onSuccess(
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
    public func onFailure(
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
    public func forEach(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        apply: @escaping @Sendable (T) -> Void
    ) {
        onSuccess(context: context, cancelToken: cancelToken, completion: apply)
    }
}
