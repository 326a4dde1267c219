// SimpleFutures' `futureStream` functions: streams from closures and repeated completion handlers.

/// Runs `task` on `context` and returns a stream holding its one result, then finished.
///
/// - Parameters:
///   - capacity: The stream's capacity (`Int.max`, SimpleFutures' default, keeps every result).
///   - context: Where `task` runs; ``defaultContext()`` if omitted.
///   - task: The work; what it throws becomes a failed result.
@usableFromInline
package func futureStream<T: Sendable>(
    capacity: Int = Int.max,
    context: ExecutionContext = defaultContext(),
    _ task: @escaping @Sendable () throws -> T
) -> FutureStream<T> {
    let stream = FutureStream<T>(openWithCapacity: capacity)
    context.execute {
        stream.publish(Result { try task() })
        stream.finish(nil)
    }
    return stream
}

/// Adapts an API that calls back **repeatedly** with an optional value and an optional error.
///
/// `method` is called at once with a handler that may be called any number of times, from any thread;
/// every call adds one result: the value if there is one, else the error, else
/// ``FuturesError/invalidValue``. The stream never finishes by itself.
@usableFromInline
package func futureStream<T: Sendable>(
    capacity: Int = Int.max,
    method: (@escaping @Sendable (T?, (any Error)?) -> Void) -> Void
) -> FutureStream<T> {
    let stream = FutureStream<T>(openWithCapacity: capacity)
    method { value, error in stream.publish(adaptedResult(value, error)) }
    return stream
}

/// Adapts an API that calls back repeatedly with a value and an optional error (a non-nil error
/// adds a failure, otherwise the value is added). The stream never finishes by itself.
@usableFromInline
package func futureStream<T: Sendable>(
    capacity: Int = Int.max,
    method: (@escaping @Sendable (T, (any Error)?) -> Void) -> Void
) -> FutureStream<T> {
    let stream = FutureStream<T>(openWithCapacity: capacity)
    method { value, error in
        if let error {
            stream.publish(.failure(error))
        } else {
            stream.publish(.success(value))
        }
    }
    return stream
}

/// Adapts an API that calls back repeatedly with an optional error: each `nil` adds `()`, each error a
/// failure. The stream never finishes by itself.
@usableFromInline
package func futureStream(
    capacity: Int = Int.max,
    method: (@escaping @Sendable ((any Error)?) -> Void) -> Void
) -> FutureStream<Void> {
    let stream = FutureStream<Void>(openWithCapacity: capacity)
    method { error in
        if let error {
            stream.publish(.failure(error))
        } else {
            stream.publish(.success(()))
        }
    }
    return stream
}

/// Adapts an API that calls back repeatedly with a value; each call adds it. Never finishes by itself.
@usableFromInline
package func futureStream<T: Sendable>(
    capacity: Int = Int.max,
    method: (@escaping @Sendable (T) -> Void) -> Void
) -> FutureStream<T> {
    let stream = FutureStream<T>(openWithCapacity: capacity)
    method { value in stream.publish(.success(value)) }
    return stream
}
