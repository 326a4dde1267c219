// SimpleFutures' `future` functions: futures from values, closures and completion-handler APIs.

/// Returns a future already completed with `task`'s value; `task` runs at once, on the calling thread.
///
/// ```swift
/// let answer = future(6 * 7)
/// ```
@inlinable
package func future<T: Sendable>(_ task: @autoclosure () -> T) -> Future<T, any Error> {
    Future(value: task())
}

/// Runs `task` on `context` and returns a future of its value, or of the error it throws.
///
/// The future is listed in failure traces and the pending-futures report as `future`, made at the
/// caller's `file` and `line`. A cancellation request on it does not stop `task`.
///
/// - Parameters:
///   - context: Where `task` runs; ``defaultContext()`` if omitted (SimpleFutures used
///     `QueueContext.futuresDefault`, see ``ExecutionContext/futuresDefault``).
///   - task: The work; it runs once.
///   - file: The caller's file, where the future is recorded (leave the default).
///   - line: The caller's line, where the future is recorded (leave the default).
/// - Returns: A future completed with `task`'s result.
@usableFromInline
package func future<T: Sendable>(
    context: ExecutionContext = defaultContext(),
    _ task: @escaping @Sendable () throws -> T,
    file: StaticString = #fileID,
    line: UInt = #line
) -> Future<T, any Error> {
    let future = Future<T, any Error>.produced("future", file: file, line: line)
    context.execute { future.complete(Result { try task() }) }
    return future
}

/// Adapts an API that calls back with an optional value and an optional error.
///
/// `method` is called at once, on the calling thread, with a completion handler that may be called
/// from any thread:
/// - `(value, _)`: the future succeeds with `value` (a value wins over an error, as in SimpleFutures);
/// - `(nil, error)`: the future fails with `error`;
/// - `(nil, nil)`: the future fails with ``FuturesError/invalidValue`` (it never hangs).
///
/// The first call wins; later calls are ignored and reported as
/// ``FuturesDiagnostic/futureCompletedTwice(file:line:)``. If the handler is never called the future
/// stays pending.
///
/// ```swift
/// extension AsyncRequester {
///     func futureRequest() -> Future<Int, any Error> {
///         future(method: request)
///     }
/// }
/// ```
@inlinable
package func future<T: Sendable>(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable (T?, (any Error)?) -> Void) -> Void
) -> Future<T, any Error> {
    Future(file: file, line: line) { complete in
        method { value, error in complete(adaptedResult(value, error)) }
    }
}

/// Adapts an API that calls back with a (non-optional) value and an optional error.
///
/// Chosen when the value type is not optional, or when the future's type asks for the optional
/// itself (`Future<Int?, any Error>`): then `(nil, nil)` is the successful value `nil`. A non-nil
/// error fails the future; otherwise it succeeds with the value. The first call wins; later calls
/// are reported as ``FuturesDiagnostic/futureCompletedTwice(file:line:)``.
@inlinable
package func future<T: Sendable>(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable (T, (any Error)?) -> Void) -> Void
) -> Future<T, any Error> {
    Future(file: file, line: line) { complete in
        method { value, error in
            if let error {
                complete(.failure(error))
            } else {
                complete(.success(value))
            }
        }
    }
}

/// Adapts an API that calls back with an optional error only: `nil` succeeds with `()`, an error fails.
///
/// `method` is called at once with the completion handler; the first call wins (later calls are
/// reported as ``FuturesDiagnostic/futureCompletedTwice(file:line:)``).
@inlinable
package func future(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable ((any Error)?) -> Void) -> Void
) -> Future<Void, any Error> {
    Future(file: file, line: line) { complete in
        method { error in
            if let error {
                complete(.failure(error))
            } else {
                complete(.success(()))
            }
        }
    }
}

/// Adapts an API that calls back with a value and cannot fail.
///
/// `method` is called at once with the completion handler; the first call wins (later calls are
/// reported as ``FuturesDiagnostic/futureCompletedTwice(file:line:)``).
@inlinable
package func future<T: Sendable>(
    file: StaticString = #fileID,
    line: UInt = #line,
    method: (@escaping @Sendable (T) -> Void) -> Void
) -> Future<T, any Error> {
    Future(file: file, line: line) { complete in
        method { value in complete(.success(value)) }
    }
}

/// The result for a `(value?, error?)` callback: value first, then error, else ``FuturesError/invalidValue``.
@inlinable
func adaptedResult<T>(_ value: T?, _ error: (any Error)?) -> Result<T, any Error> {
    if let value { return .success(value) }
    if let error { return .failure(error) }
    return .failure(FuturesError.invalidValue)
}
