extension FutureStream {
    /// Registers `completion` for every result: the replay first, then each new one, in order.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted. Calls never overlap.
    ///   - cancelToken: `cancel(cancelToken)` on this stream unregisters `completion`.
    ///   - completion: Receives each result (values and per-element failures).
    @inlinable
    package func onComplete(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        subscribe(context: context, cancelToken: cancelToken) { event in
            if case .element(let result) = event { completion(result) }
        }
    }

    /// Registers `completion` for every successful result (replay first, then live, in order).
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted. Calls never overlap.
    ///   - cancelToken: `cancel(cancelToken)` on this stream unregisters `completion`.
    ///   - completion: Receives each value; failures are skipped.
    @inlinable
    package func onSuccess(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        completion: @escaping @Sendable (T) -> Void
    ) {
        subscribe(context: context, cancelToken: cancelToken) { event in
            if case .element(.success(let value)) = event { completion(value) }
        }
    }

    /// Registers `completion` for every failed result (replay first, then live, in order).
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted. Calls never overlap.
    ///   - cancelToken: `cancel(cancelToken)` on this stream unregisters `completion`.
    ///   - completion: Receives each per-element error; values are skipped. A terminal failure
    ///     (``StreamPromise/finish(throwing:)``) is reported to ``onFinish(context:cancelToken:completion:)``.
    @inlinable
    package func onFailure(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        completion: @escaping @Sendable (any Error) -> Void
    ) {
        subscribe(context: context, cancelToken: cancelToken) { event in
            if case .element(.failure(let error)) = event { completion(error) }
        }
    }

    /// Registers `completion` to run once the stream has ended (not in SimpleFutures).
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this stream unregisters `completion`.
    ///   - completion: Receives `nil` when the stream finished, or the terminal error. Runs at once (on
    ///     `context`) if the stream has already ended; never runs for a stream that never ends.
    @inlinable
    package func onFinish(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        subscribe(context: context, cancelToken: cancelToken) { event in
            if case .end(let error) = event { completion(error) }
        }
    }

    /// Runs `apply` for every value (SimpleFutures' `forEach`; the same as ``onSuccess(context:cancelToken:completion:)``).
    ///
    /// - Parameters:
    ///   - context: Where `apply` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this stream unregisters `apply`.
    ///   - apply: Receives each value in order; failures are skipped.
    @inlinable
    package func forEach(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        apply: @escaping @Sendable (T) -> Void
    ) {
        onSuccess(context: context, cancelToken: cancelToken, completion: apply)
    }
}
