// SimpleFutures' stream combinators. They are members of `FutureStream` (not of `AsyncSequence`), so
// `stream.map { … }` stays a `FutureStream`.
//
// Every derived stream has the capacity of its source, receives the results in the source's order,
// and ends when the source ends (for `flatMap`/`recoverWith`: once the inner futures and streams
// have ended too). A derived stream is kept alive by its source's subscription.

extension FutureStream {
    /// Subscribes a combinator that writes `derived`: ends it with the source, and on cancellation
    /// quiets the chain (same token) and finishes it.
    @inlinable
    func feed<M>(
        _ derived: FutureStream<M>,
        context: ExecutionContext,
        cancelToken: CancelToken,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        subscribe(context: context, cancelToken: cancelToken, onCancel: derived.finishOnCancel(cancelToken)) {
            event in
            switch event {
            case .element(let result): body(result)
            case .end(let error): derived.finish(error)
            }
        }
    }

    /// Like ``feed(_:context:cancelToken:_:)``, for combinators that start inner futures or streams:
    /// `derived` ends only when the source and every inner one have ended.
    private func feedJoining<M>(
        _ derived: FutureStream<M>,
        context: ExecutionContext,
        cancelToken: CancelToken,
        _ body: @escaping @Sendable (Result<T, any Error>, StreamJoin<M>) -> Void
    ) {
        let join = StreamJoin(derived)
        let onCancel: (@Sendable () -> Void)? =
            cancelToken.isUnused
            ? nil
            : { @Sendable [weak cancelToken] in  // weak: the token holds this action (see finishOnCancel)
                if let cancelToken { derived.cancel(cancelToken) }
                derived.finish(nil)
            }
        subscribe(context: context, cancelToken: cancelToken, onCancel: onCancel) { event in
            switch event {
            case .element(let result): body(result, join)
            case .end(let error): join.leave(sourceEnd: error)
            }
        }
    }

    /// What a combinator's subscription runs when it is cancelled: quiets the chain built with
    /// `cancelToken` on this (derived) stream, then finishes it; `nil` for an unused token.
    ///
    /// The token holds the registration that holds this action, so the action holds the token weakly (a
    /// strong capture would be a cycle that keeps a dropped token alive).
    @usableFromInline
    func finishOnCancel(_ cancelToken: CancelToken) -> (@Sendable () -> Void)? {
        if cancelToken.isUnused { return nil }
        return { @Sendable [weak cancelToken] in
            if let cancelToken { self.cancel(cancelToken) }
            self.finish(nil)
        }
    }

    /// Transforms every value with a closure that may throw; failures pass through.
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this stream stops `mapping`; the returned stream finishes.
    ///   - mapping: Receives each value in order; what it throws becomes a failed result.
    /// - Returns: A stream of the mapped results.
    @inlinable
    package func map<M>(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        mapping: @escaping @Sendable (T) throws -> M
    ) -> FutureStream<M> {
        let derived = FutureStream<M>(openWithCapacity: capacity)
        feed(derived, context: context, cancelToken: cancelToken) { result in
            derived.publish(result.flatMap { value in Result { try mapping(value) } })
        }
        return derived
    }

    /// Replaces every value with the results of the stream `mapping` returns for it.
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs, and where the inner streams' results are handed over.
    ///   - cancelToken: `cancel(cancelToken)` on this stream stops `mapping`; the returned stream finishes.
    ///   - mapping: Receives each value; what it throws becomes a failed result. Failures of this
    ///     stream pass through.
    /// - Returns: A stream of every inner stream's results, in the order they arrive.
    @usableFromInline
    package func flatMap<M>(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        mapping: @escaping @Sendable (T) throws -> FutureStream<M>
    ) -> FutureStream<M> {
        let derived = FutureStream<M>(openWithCapacity: capacity)
        feedJoining(derived, context: context, cancelToken: cancelToken) { result, join in
            switch result {
            case .success(let value):
                do {
                    join.forward(try mapping(value), context: context)
                } catch {
                    derived.publish(.failure(error))
                }
            case .failure(let error):
                derived.publish(.failure(error))
            }
        }
        return derived
    }

    /// Replaces every value with the result of the future `mapping` returns for it.
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs, and where the futures' results are handed over.
    ///   - cancelToken: `cancel(cancelToken)` on this stream stops `mapping`; the returned stream finishes.
    ///   - mapping: Receives each value; what it throws becomes a failed result.
    /// - Returns: A stream of the futures' results, in the order they complete.
    @usableFromInline
    package func flatMap<M>(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        mapping: @escaping @Sendable (T) throws -> Future<M, any Error>
    ) -> FutureStream<M> {
        let derived = FutureStream<M>(openWithCapacity: capacity)
        feedJoining(derived, context: context, cancelToken: cancelToken) { result, join in
            switch result {
            case .success(let value):
                do {
                    join.forward(try mapping(value), context: context)
                } catch {
                    derived.publish(.failure(error))
                }
            case .failure(let error):
                derived.publish(.failure(error))
            }
        }
        return derived
    }

    /// Keeps the values `filter` accepts; a rejected value becomes a ``FuturesError/noSuchElement`` failure
    /// (SimpleFutures' rule: the result is not dropped).
    ///
    /// - Parameters:
    ///   - context: Where `filter` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this stream stops `filter`; the returned stream finishes.
    ///   - filter: Receives each value; what it throws becomes a failed result.
    /// - Returns: A stream with one result per result of this stream.
    @inlinable
    package func withFilter(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        filter: @escaping @Sendable (T) throws -> Bool
    ) -> FutureStream<T> {
        map(context: context, cancelToken: cancelToken) { value in
            guard try filter(value) else { throw streamFilterRejection }
            return value
        }
    }

    /// Runs `completion` for every value, then passes each result on unchanged.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this stream stops `completion`; the returned stream finishes.
    ///   - completion: Receives each value; skipped for failures.
    /// - Returns: A stream with this stream's results, each added after `completion` returned for it.
    @inlinable
    package func andThen(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        completion: @escaping @Sendable (T) -> Void
    ) -> FutureStream<T> {
        let derived = FutureStream<T>(openWithCapacity: capacity)
        feed(derived, context: context, cancelToken: cancelToken) { result in
            if case .success(let value) = result { completion(value) }
            derived.publish(result)
        }
        return derived
    }

    /// Replaces every failed result with the value `recovery` returns (or the error it throws).
    ///
    /// - Parameters:
    ///   - context: Where `recovery` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this stream stops `recovery`; the returned stream finishes.
    ///   - recovery: Receives each per-element error. A terminal failure is not recovered: it ends the
    ///     returned stream too.
    /// - Returns: A stream with one result per result of this stream.
    @inlinable
    package func recover(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        recovery: @escaping @Sendable (any Error) throws -> T
    ) -> FutureStream<T> {
        let derived = FutureStream<T>(openWithCapacity: capacity)
        feed(derived, context: context, cancelToken: cancelToken) { result in
            switch result {
            case .success: derived.publish(result)
            case .failure(let error): derived.publish(Result { try recovery(error) })
            }
        }
        return derived
    }

    /// Replaces every failed result with the results of the stream `recovery` returns.
    ///
    /// - Parameters:
    ///   - context: Where `recovery` runs, and where the recovery streams' results are handed over.
    ///   - cancelToken: `cancel(cancelToken)` on this stream stops `recovery`; the returned stream finishes.
    ///   - recovery: Receives each per-element error; what it throws becomes a failed result.
    /// - Returns: A stream of this stream's values and the recovery streams' results.
    @usableFromInline
    package func recoverWith(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        recovery: @escaping @Sendable (any Error) throws -> FutureStream<T>
    ) -> FutureStream<T> {
        let derived = FutureStream<T>(openWithCapacity: capacity)
        feedJoining(derived, context: context, cancelToken: cancelToken) { result, join in
            switch result {
            case .success:
                derived.publish(result)
            case .failure(let error):
                do {
                    join.forward(try recovery(error), context: context)
                } catch {
                    derived.publish(.failure(error))
                }
            }
        }
        return derived
    }

    /// Replaces every failed result with the result of the future `recovery` returns.
    ///
    /// - Parameters:
    ///   - context: Where `recovery` runs, and where the futures' results are handed over.
    ///   - cancelToken: `cancel(cancelToken)` on this stream stops `recovery`; the returned stream finishes.
    ///   - recovery: Receives each per-element error; what it throws becomes a failed result.
    /// - Returns: A stream of this stream's values and the recovery futures' results.
    @usableFromInline
    package func recoverWith(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        recovery: @escaping @Sendable (any Error) throws -> Future<T, any Error>
    ) -> FutureStream<T> {
        let derived = FutureStream<T>(openWithCapacity: capacity)
        feedJoining(derived, context: context, cancelToken: cancelToken) { result, join in
            switch result {
            case .success:
                derived.publish(result)
            case .failure(let error):
                do {
                    join.forward(try recovery(error), context: context)
                } catch {
                    derived.publish(.failure(error))
                }
            }
        }
        return derived
    }

    /// Transforms every per-element error with `mapping`; values pass through.
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this stream stops `mapping`; the returned stream finishes.
    ///   - mapping: Receives each per-element error and returns the one to publish instead.
    /// - Returns: A stream with one result per result of this stream.
    @inlinable
    package func mapError(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        mapping: @escaping @Sendable (any Error) -> any Error
    ) -> FutureStream<T> {
        let derived = FutureStream<T>(openWithCapacity: capacity)
        feed(derived, context: context, cancelToken: cancelToken) { result in
            derived.publish(result.mapError(mapping))
        }
        return derived
    }
}

/// The failure a rejected value becomes in ``FutureStream/withFilter(context:cancelToken:filter:)``:
/// ``FuturesError/noSuchElement``, boxed once so that rejecting a value does not allocate.
@usableFromInline
let streamFilterRejection: any Error = FuturesError.noSuchElement

/// Ends a derived stream once its source and every inner future or stream it started have ended.
final class StreamJoin<M: Sendable>: Sendable {
    let target: FutureStream<M>
    /// How many sources are still open (the outer stream counts as one), and the outer's terminal error.
    private let open = LockedBox<(count: Int, error: (any Error)?)>((1, nil))

    init(_ target: FutureStream<M>) {
        self.target = target
    }

    /// Forwards `future`'s result into the target.
    func forward(_ future: Future<M, any Error>, context: ExecutionContext) {
        open.withValue { $0.count += 1 }
        future.onComplete(context) { [self] result in
            target.publish(result)
            leave(sourceEnd: nil, isSource: false)
        }
    }

    /// Forwards every result of `stream` into the target, until `stream` ends.
    func forward(_ stream: FutureStream<M>, context: ExecutionContext) {
        open.withValue { $0.count += 1 }
        stream.subscribe(context: context) { [self] event in
            switch event {
            case .element(let result): target.publish(result)
            case .end: leave(sourceEnd: nil, isSource: false)
            }
        }
    }

    /// One source ended; the outer stream's terminal error (if any) becomes the target's.
    func leave(sourceEnd error: (any Error)?, isSource: Bool = true) {
        let (isLast, finalError) = open.withValue { state -> (Bool, (any Error)?) in
            if isSource { state.error = error }
            state.count -= 1
            return (state.count == 0, state.error)
        }
        if isLast { target.finish(finalError) }
    }
}
