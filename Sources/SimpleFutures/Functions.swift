import Futures

// SimpleFutures' free functions: futures and streams from values, closures and completion handlers,
// and the sequence combinators (through the core's one gatherer).

/// A future completed with `task`'s value; `task` runs at once, on the calling thread.
@inlinable
public func future<T>(_ task: @autoclosure () -> T) -> Future<T> {
    Future(value: task())
}

/// Runs `task` on `context` and returns a future of its value, or of the error it throws.
@inlinable
public func future<T>(
    context: ExecutionContext = QueueContext.futuresDefault,
    _ task: @escaping @Sendable () throws -> T
) -> Future<T> {
    let future = Future<T>()
    context.execute { future.complete(Result { try task() }) }
    return future
}

/// Adapts an API that calls back with a value and an optional error: a non-`nil` error fails the
/// future, otherwise it succeeds with the value (for `Future<Int?>`, `(nil, nil)` succeeds with `nil`).
///
/// `method` is called at once with a handler that may be called from any thread; the first call wins
/// and later calls are reported as `Futures.FuturesDiagnostic.futureCompletedTwice(file:line:)`.
@inlinable
public func future<T>(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable (T, (any Error)?) -> Void) -> Void
) -> Future<T> {
    let future = Future<T>()
    method { value, error in
        future.complete(error.map { .failure($0) } ?? .success(value), reportingAt: file, line: line)
    }
    return future
}

/// Adapts an API that calls back with an optional error: `nil` succeeds with `()`, an error fails.
/// The first call wins (later calls are reported as with `future(file:line:method:)`).
@inlinable
public func future(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable ((any Error)?) -> Void) -> Void
) -> Future<Void> {
    let future = Future<Void>()
    method { error in future.complete(error.map { .failure($0) } ?? .success(()), reportingAt: file, line: line) }
    return future
}

/// Adapts an API that calls back with a value and cannot fail. The first call wins.
@inlinable
public func future<T>(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable (T) -> Void) -> Void
) -> Future<T> {
    let future = Future<T>()
    method { value in future.complete(.success(value), reportingAt: file, line: line) }
    return future
}

/// Runs `task` on `context` and returns a stream holding its result.
@inlinable
public func futureStream<T>(
    context: ExecutionContext = QueueContext.futuresDefault,
    _ task: @escaping @Sendable () throws -> T
) -> FutureStream<T> {
    let stream = FutureStream<T>()
    context.execute { stream.complete(Result { try task() }) }
    return stream
}

/// Adapts an API that calls back repeatedly with a value and an optional error: each call adds the
/// error if there is one, else the value.
@inlinable
public func futureStream<T>(
    capacity: Int = Int.max,
    method: (@escaping @Sendable (T, (any Error)?) -> Void) -> Void
) -> FutureStream<T> {
    let stream = FutureStream<T>(capacity: capacity)
    method { value, error in stream.complete(error.map { .failure($0) } ?? .success(value)) }
    return stream
}

/// Adapts an API that calls back repeatedly with an optional error: each `nil` adds `()`, each error
/// a failure.
@inlinable
public func futureStream(
    capacity: Int = Int.max,
    method: (@escaping @Sendable ((any Error)?) -> Void) -> Void
) -> FutureStream<Void> {
    let stream = FutureStream<Void>(capacity: capacity)
    method { error in stream.complete(error.map { .failure($0) } ?? .success(())) }
    return stream
}

/// Adapts an API that calls back repeatedly with a value; each call adds it.
@inlinable
public func futureStream<T>(
    capacity: Int = Int.max,
    method: (@escaping @Sendable (T) -> Void) -> Void
) -> FutureStream<T> {
    let stream = FutureStream<T>(capacity: capacity)
    method { value in stream.success(value) }
    return stream
}

extension Sequence {
    /// Folds the values of these futures, in list order, into one value.
    ///
    /// - Parameters:
    ///   - context: Where `combine` runs (once per element, in order, within one callback).
    ///   - initial: The starting value.
    ///   - combine: Folds the accumulated value with the next value; what it throws fails the result.
    /// - Returns: A future of the folded value; it fails with the first failure in list order. O(n).
    public func fold<T, R: Sendable>(
        context: ExecutionContext = QueueContext.futuresDefault,
        initial: R,
        combine: @escaping @Sendable (R, T) throws -> R
    ) -> Future<R> where Element == Future<T> {
        Future<R>(map(\.base).fold(context: context, initial: initial, combine: combine))
    }

    /// One future of all these futures' values, in list order; it fails with the first failure in list
    /// order. The returned future is completed on `context`. O(n).
    public func sequence<T>(context: ExecutionContext = QueueContext.futuresDefault) -> Future<[T]>
    where Element == Future<T> {
        Future<[T]>(map(\.base).sequence(context: context))
    }

    /// Starts a future for every element with `mapping` (at once, on the calling thread, in order),
    /// then collects their values in list order, completing the returned future on `context`.
    public func traverse<U>(
        context: ExecutionContext = QueueContext.futuresDefault,
        mapping: (Element) -> Future<U>
    ) -> Future<[U]> {
        Future<[U]>(map { mapping($0).base }.sequence(context: context))
    }
}
