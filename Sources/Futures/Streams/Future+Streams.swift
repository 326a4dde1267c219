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
    @usableFromInline
    package func flatMap<M>(
        capacity: Int = Int.max,
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        mapping: @escaping @Sendable (T) throws -> FutureStream<M>
    ) -> FutureStream<M> {
        feed(FutureStream<M>(openWithCapacity: capacity), context, cancelToken) { result, join in
            join.relay(try mapping(try result.get()), context: context)
        }
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
    @usableFromInline
    package func recoverWith(
        capacity: Int = Int.max,
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        recovery: @escaping @Sendable (any Error) throws -> FutureStream<T>
    ) -> FutureStream<T> {
        feed(FutureStream<T>(openWithCapacity: capacity), context, cancelToken) { result, join in
            switch result {
            case .success:
                join.target.publish(result)
                join.target.finish(nil)
            case .failure(let error): join.relay(try recovery(error), context: context)
            }
        }
    }

    /// Feeds `stream` from this future's result and returns it: `body` runs on `context` with the result
    /// and a join onto `stream`, as one consumer of this future. What `body` throws becomes the stream's
    /// only result, and the stream finishes. `cancel(cancelToken)` on this future takes `body` back and
    /// finishes the stream.
    ///
    /// A stream is not a future, so a pending future stands for it in the registration (it is the
    /// consumer the one primitive, ``depend(on:_:link:asking:cancelToken:onCancel:_:)``, registers); it
    /// completes once `body` has run. Nothing can ask it to cancel, and it links no failure trace: a
    /// stream carries none.
    func feed<M>(
        _ stream: FutureStream<M>,
        _ context: ExecutionContext,
        _ cancelToken: CancelToken,
        _ body: @escaping @Sendable (Result<T, any Error>, StreamJoin<M>) throws -> Void
    ) -> FutureStream<M> {
        let consumer = Future<Void, Never>()
        consumer.depend(
            on: self, context, link: .gathered, cancelToken: cancelToken, onCancel: Self.finishing(stream, cancelToken)
        ) { result in
            do {
                try body(result, StreamJoin(stream))
            } catch {
                stream.publish(.failure(error))
                stream.finish(nil)
            }
            consumer.complete(.success(()))
        }
        return stream
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
