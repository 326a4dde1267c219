extension Future where E == any Error {
    /// Continues with the stream `mapping` returns for the value (SimpleFutures' `flatMap(capacity:…)`).
    ///
    /// - Parameters:
    ///   - capacity: The returned stream's capacity (`Int.max` keeps every result).
    ///   - context: Where `mapping` runs, and where the inner stream's results are handed over.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `mapping`; the returned stream finishes.
    ///   - mapping: Receives the value; what it throws becomes the stream's only result.
    /// - Returns: A stream of the inner stream's results, ending when it ends. If this future fails,
    ///   the stream holds that one failure and finishes.
    @_disfavoredOverload
    public func flatMap<M>(
        capacity: Int = Int.max,
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        mapping: @escaping @Sendable (T) throws -> FutureStream<M>
    ) -> FutureStream<M> {
        let derived = FutureStream<M>(openWithCapacity: capacity)
        whenComplete(context, cancelToken: cancelToken, onCancel: Self.finishing(derived, cancelToken)) { result in
            switch result {
            case .success(let value):
                do {
                    StreamJoin(derived).relay(try mapping(value), context: context)
                } catch {
                    derived.publish(.failure(error))
                    derived.finish(nil)
                }
            case .failure(let error):
                derived.publish(.failure(error))
                derived.finish(nil)
            }
        }
        return derived
    }

    /// On failure, continues with the stream `recovery` returns (SimpleFutures' `recoverWith(capacity:…)`).
    ///
    /// - Parameters:
    ///   - capacity: The returned stream's capacity (`Int.max` keeps every result).
    ///   - context: Where `recovery` runs, and where the recovery stream's results are handed over.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `recovery`; the returned stream finishes.
    ///   - recovery: Receives the error; what it throws becomes the stream's only result.
    /// - Returns: A stream holding this future's value (then finished), or the recovery stream's results.
    @_disfavoredOverload
    public func recoverWith(
        capacity: Int = Int.max,
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        recovery: @escaping @Sendable (any Error) throws -> FutureStream<T>
    ) -> FutureStream<T> {
        let derived = FutureStream<T>(openWithCapacity: capacity)
        whenComplete(context, cancelToken: cancelToken, onCancel: Self.finishing(derived, cancelToken)) { result in
            switch result {
            case .success:
                derived.publish(result)
                derived.finish(nil)
            case .failure(let error):
                do {
                    StreamJoin(derived).relay(try recovery(error), context: context)
                } catch {
                    derived.publish(.failure(error))
                    derived.finish(nil)
                }
            }
        }
        return derived
    }

    /// The `onCancel` action of a combinator that writes the stream `derived`.
    static func finishing<U>(_ derived: FutureStream<U>, _ cancelToken: CancelToken) -> (@Sendable () -> Void)? {
        if cancelToken.isUnused { return nil }
        return { [weak cancelToken] in  // weak: the token holds this action (a cycle otherwise)
            if let cancelToken { derived.cancel(cancelToken) }
            derived.finish(nil)
        }
    }
}

extension StreamJoin {
    /// Forwards `stream` into the target as its only source: the target ends when `stream` ends.
    func relay(_ stream: FutureStream<M>, context: ExecutionContext) {
        stream.subscribe(context: context) { [self] event in
            switch event {
            case .element(let result): target.publish(result)
            case .end(let error): target.finish(error)
            }
        }
    }
}
