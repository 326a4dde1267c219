import Futures

// SimpleFutures' combinators. Each goes through the core's dependency primitive (`deriveWithToken`,
// a derived future that is one consumer of this one). With a `cancelToken`, `cancel(cancelToken)` on
// this future unregisters the closure, releases it, and leaves the returned future pending, as
// SimpleFutures did (the core's own SimpleFutures-style combinators fail it with `.cancelled`).

extension Future {
    /// The future of a combinator: `body` completes it with this future's result, on `context`, through
    /// the core's dependency primitive (one consumer of this future). With a token, `cancel(token)` on
    /// this future unregisters `body` and leaves the returned future pending.
    @inlinable
    func derived<M>(
        _ context: ExecutionContext,
        _ cancelToken: CancelToken?,
        step: StaticString,
        file: StaticString,
        line: UInt,
        _ body: @escaping @Sendable (Try<T>, Futures.Future<M, any Error>) -> Void
    ) -> Future<M> {
        if let cancelToken {
            return Future<M>(
                base.deriveWithToken(
                    context, cancelToken, failingOnCancel: false, step: step, file: file, line: line, body))
        }
        return Future<M>(base.derive(context, step: step, file: file, line: line, body))
    }

    /// `result`'s value transformed by `mapping` (what it throws becomes the failure), or its failure.
    @inlinable
    static func mapped<M>(_ result: Try<T>, _ mapping: (T) throws -> M) -> Try<M> {
        switch result {
        case .success(let value):
            do { return .success(try mapping(value)) } catch { return .failure(error) }
        case .failure(let error):
            return .failure(error)
        }
    }

    /// Transforms the value with a closure that may throw.
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs; `QueueContext.futuresDefault` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `mapping` from running; the returned
    ///     future then stays pending.
    ///   - file: The call site the returned future's failure trace and pending-futures entry name.
    ///   - line: The line of that call site.
    ///   - mapping: Receives the value; what it throws fails the returned future. Does not run on
    ///     failure (the failure passes through). Released after it ran.
    /// - Returns: A future of the mapped value.
    @inlinable
    public func map<M>(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        mapping: @escaping @Sendable (T) throws -> M
    ) -> Future<M> {
        if context.isImmediate, cancelToken == nil,
            let mapped = base.ifCompleted({ result in
                Futures.Future<M, any Error>(result: Self.mapped(result, mapping))
            })
        {
            return Future<M>(mapped)
        }
        return derived(context, cancelToken, step: "map", file: file, line: line) {
            result, future in
            future.complete(Self.mapped(result, mapping))
        }
    }

    /// Continues with the future `mapping` returns for the value; use it to run requests one after another.
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs; `QueueContext.futuresDefault` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `mapping`; the returned future stays pending.
    ///   - file: The call site the returned future's failure trace and pending-futures entry name.
    ///   - line: The line of that call site.
    ///   - mapping: Receives the value and returns the next future; what it throws fails the result.
    /// - Returns: A future completed by `mapping`'s future, or failed with this future's error.
    @inlinable
    public func flatMap<M>(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        mapping: @escaping @Sendable (T) throws -> Future<M>
    ) -> Future<M> {
        derived(context, cancelToken, step: "flatMap", file: file, line: line) {
            result, future in
            switch result {
            case .success(let value): future.completeWith { try mapping(value).base }
            case .failure(let error): future.complete(.failure(error))
            }
        }
    }

    /// Keeps the value only if `filter` accepts it.
    ///
    /// - Parameters:
    ///   - context: Where `filter` runs; `QueueContext.futuresDefault` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `filter`; the returned future stays pending.
    ///   - file: The call site the returned future's failure trace and pending-futures entry name.
    ///   - line: The line of that call site.
    ///   - filter: Receives the value. `false` fails the returned future with
    ///     `FuturesError.noSuchElement`; what it throws fails it. A failure passes through.
    /// - Returns: A future with the accepted value.
    @inlinable
    public func withFilter(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        filter: @escaping @Sendable (T) throws -> Bool
    ) -> Future<T> {
        derived(context, cancelToken, step: "withFilter", file: file, line: line) { result, future in
            future.complete(
                Self.mapped(result) { value in
                    guard try filter(value) else { throw FuturesError.noSuchElement }
                    return value
                })
        }
    }

    /// Runs `apply` with the value on success, on `context` (the same as `onSuccess(context:cancelToken:completion:)`).
    @inlinable
    public func forEach(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        apply: @escaping @Sendable (T) -> Void
    ) {
        onSuccess(context: context, cancelToken: cancelToken, completion: apply)
    }

    /// Runs `completion` with the value, then completes the returned future with this future's result:
    /// a pass-through step (SimpleFutures' `andThen`, which receives the value).
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; `QueueContext.futuresDefault` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `completion`; the returned future
    ///     stays pending.
    ///   - file: The call site the returned future's failure trace and pending-futures entry name.
    ///   - line: The line of that call site.
    ///   - completion: Receives the value; does not run on failure.
    /// - Returns: A future with this future's result, completed after `completion` returned.
    @inlinable
    public func andThen(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        completion: @escaping @Sendable (T) -> Void
    ) -> Future<T> {
        derived(context, cancelToken, step: "andThen", file: file, line: line) {
            result, future in
            if case .success(let value) = result { completion(value) }
            future.complete(result)
        }
    }

    /// Replaces a failure with the value `recovery` returns; `recovery` may throw.
    ///
    /// - Parameters:
    ///   - context: Where `recovery` runs; `QueueContext.futuresDefault` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `recovery`; the returned future stays pending.
    ///   - file: The call site the returned future's failure trace and pending-futures entry name.
    ///   - line: The line of that call site.
    ///   - recovery: Receives the error; what it throws fails the returned future. Not run on success.
    /// - Returns: A future with this future's value or the recovered one.
    @inlinable
    public func recover(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        recovery: @escaping @Sendable (any Error) throws -> T
    ) -> Future<T> {
        derived(context, cancelToken, step: "recover", file: file, line: line) {
            result, future in
            switch result {
            case .success: future.complete(result)
            case .failure(let error): future.complete(Result { try recovery(error) })
            }
        }
    }

    /// Replaces a failure with the future `recovery` returns.
    ///
    /// - Parameters:
    ///   - context: Where `recovery` runs; `QueueContext.futuresDefault` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `recovery`; the returned future stays pending.
    ///   - file: The call site the returned future's failure trace and pending-futures entry name.
    ///   - line: The line of that call site.
    ///   - recovery: Receives the error and returns the future to continue with; what it throws fails
    ///     the returned future. Not run on success.
    /// - Returns: A future with this future's value or the recovery future's result.
    @inlinable
    public func recoverWith(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        recovery: @escaping @Sendable (any Error) throws -> Future<T>
    ) -> Future<T> {
        derived(context, cancelToken, step: "recoverWith", file: file, line: line) {
            result, future in
            switch result {
            case .success: future.complete(result)
            case .failure(let error): future.completeWith { try recovery(error).base }
            }
        }
    }

    /// Transforms the error; a value passes through.
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs; `QueueContext.futuresDefault` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `mapping`; the returned future stays pending.
    ///   - file: The call site the returned future's failure trace and pending-futures entry name.
    ///   - line: The line of that call site.
    ///   - mapping: Receives the error and returns the one to fail with.
    /// - Returns: A future with this future's value or the mapped error.
    @inlinable
    public func mapError(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        mapping: @escaping @Sendable (any Error) -> any Error
    ) -> Future<T> {
        derived(context, cancelToken, step: "mapError", file: file, line: line) {
            result, future in
            future.complete(result.mapError(mapping))
        }
    }

    // MARK: - To streams

    /// Continues with the stream `mapping` returns for the value.
    ///
    /// - Parameters:
    ///   - capacity: The returned stream's capacity (`Int.max` keeps every result).
    ///   - context: Where `mapping` runs and the inner stream's results are handed over.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `mapping`; the returned stream then
    ///     receives nothing.
    ///   - mapping: Receives the value; what it throws becomes the stream's only result.
    /// - Returns: A stream of the inner stream's results; if this future fails, it holds that failure.
    @inlinable
    public func flatMap<M>(
        capacity: Int = Int.max,
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        mapping: @escaping @Sendable (T) throws -> FutureStream<M>
    ) -> FutureStream<M> {
        FutureStream<M>(
            base.flatMap(capacity: capacity, context: context, cancelToken: cancelToken ?? .unused) {
                try mapping($0).base
            })
    }

    /// On failure, continues with the stream `recovery` returns.
    ///
    /// - Parameters:
    ///   - capacity: The returned stream's capacity (`Int.max` keeps every result).
    ///   - context: Where `recovery` runs and the recovery stream's results are handed over.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `recovery`; the returned stream then
    ///     receives nothing.
    ///   - recovery: Receives the error; what it throws becomes the stream's only result.
    /// - Returns: A stream holding this future's value, or the recovery stream's results.
    @inlinable
    public func recoverWith(
        capacity: Int = Int.max,
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        recovery: @escaping @Sendable (any Error) throws -> FutureStream<T>
    ) -> FutureStream<T> {
        FutureStream<T>(
            base.recoverWith(capacity: capacity, context: context, cancelToken: cancelToken ?? .unused) {
                try recovery($0).base
            })
    }
}

/// `lhs`'s value, or `rhs` (evaluated on failure only) if it failed.
@inlinable
public func ?? <T>(lhs: Future<T>, rhs: @autoclosure @escaping @Sendable () throws -> T) -> Future<T> {
    lhs.recover { _ in try rhs() }
}

/// `lhs`'s value, or the result of the future `rhs` (evaluated on failure only) if it failed.
@inlinable
public func ?? <T>(lhs: Future<T>, rhs: @autoclosure @escaping @Sendable () throws -> Future<T>) -> Future<T> {
    lhs.recoverWith { _ in try rhs() }
}
