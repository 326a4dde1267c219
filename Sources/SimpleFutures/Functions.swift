import Futures

// SimpleFutures' free functions: futures and streams from values, closures and completion handlers,
// and the sequence combinators (through the core's one gatherer).

/// A future completed with `task`'s value; `task` runs at once, on the calling thread.
@inlinable
public func future<T>(_ task: @autoclosure () -> T) -> Future<T> {
    Future(value: task())
}

/// Runs `task` on `context` and returns a future of its value, or of the error it throws.
///
/// The future is listed in failure traces and the pending-futures report as `future`, made at the
/// caller's `file` and `line`. A cancellation request on it does not stop `task`.
///
/// - Parameters:
///   - context: Where `task` runs; `QueueContext.futuresDefault` if omitted.
///   - task: The work; it runs once.
///   - file: The caller's file, where the future is recorded (leave the default).
///   - line: The caller's line, where the future is recorded (leave the default).
/// - Returns: A future completed with `task`'s result.
public func future<T>(
    context: ExecutionContext = QueueContext.futuresDefault,
    _ task: @escaping @Sendable () throws -> T,
    file: StaticString = #fileID,
    line: UInt = #line
) -> Future<T> {
    let future = Future<T>(Futures.Future<T, any Error>.produced("future", file: file, line: line))
    context.execute { future.complete(Result { try task() }) }
    return future
}

/// Adapts an API that calls back with a value and an optional error: a non-`nil` error fails the
/// future, otherwise it succeeds with the value (for `Future<Int?>`, `(nil, nil)` succeeds with `nil`).
///
/// `method` is called at once with a handler that may be called from any thread; the first call wins
/// and later calls are reported as `Futures.FuturesDiagnostic.futureCompletedTwice(file:line:)`. The
/// future is listed in failure traces and the pending-futures report as `future` at `file`:`line`.
public func future<T>(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable (T, (any Error)?) -> Void) -> Void
) -> Future<T> {
    let future = Future<T>(Futures.Future<T, any Error>.produced("future", file: file, line: line))
    method { value, error in
        future.complete(error.map { .failure($0) } ?? .success(value), reportingAt: file, line: line)
    }
    return future
}

/// Adapts an API that calls back with an optional error: `nil` succeeds with `()`, an error fails.
/// The first call wins (later calls are reported as with `future(file:line:method:)`). The future is
/// listed in failure traces and the pending-futures report as `future` at `file`:`line`.
public func future(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable ((any Error)?) -> Void) -> Void
) -> Future<Void> {
    let future = Future<Void>(Futures.Future<Void, any Error>.produced("future", file: file, line: line))
    method { error in future.complete(error.map { .failure($0) } ?? .success(()), reportingAt: file, line: line) }
    return future
}

/// Adapts an API that calls back with a value and cannot fail. The first call wins. The future is
/// listed in failure traces and the pending-futures report as `future` at `file`:`line`.
public func future<T>(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable (T) -> Void) -> Void
) -> Future<T> {
    let future = Future<T>(Futures.Future<T, any Error>.produced("future", file: file, line: line))
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
    ///   - file: The caller's file, where the step is recorded (leave the default).
    ///   - line: The caller's line, where the step is recorded (leave the default).
    /// - Returns: A future of the folded value; it fails with the first failure in list order. O(n).
    public func fold<T, R: Sendable>(
        context: ExecutionContext = QueueContext.futuresDefault,
        initial: R,
        combine: @escaping @Sendable (R, T) throws -> R,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<R> where Element == Future<T> {
        Future<R>(map(\.base).fold(context: context, initial: initial, combine: combine, file: file, line: line))
    }

    /// One future of all these futures' values, in list order; it fails with the first failure in list
    /// order. The returned future is completed on `context`. O(n).
    ///
    /// - Parameters:
    ///   - context: Where the returned future is completed.
    ///   - file: The caller's file, where the step is recorded (leave the default).
    ///   - line: The caller's line, where the step is recorded (leave the default).
    /// - Returns: A future of the values, in list order.
    public func sequence<T>(
        context: ExecutionContext = QueueContext.futuresDefault, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<[T]>
    where Element == Future<T> {
        Future<[T]>(map(\.base).sequence(context: context, file: file, line: line))
    }

    /// Starts a future for every element with `mapping` (at once, on the calling thread, in order),
    /// then collects their values in list order, completing the returned future on `context`.
    ///
    /// - Parameters:
    ///   - context: Where the returned future is completed.
    ///   - mapping: Makes each element's future.
    ///   - file: The caller's file, where the step is recorded (leave the default).
    ///   - line: The caller's line, where the step is recorded (leave the default).
    /// - Returns: A future of the values, in list order.
    public func traverse<U>(
        context: ExecutionContext = QueueContext.futuresDefault,
        mapping: (Element) -> Future<U>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<[U]> {
        Future<[U]>(traverse(context: context, mapping: { mapping($0).base }, file: file, line: line))
    }
}
