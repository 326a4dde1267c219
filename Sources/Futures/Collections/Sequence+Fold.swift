import Dispatch

extension Sequence {
    /// Folds the values of a sequence of futures into one value, on a global queue.
    ///
    /// Same as ``fold(_:zero:file:line:f:)-(ExecutionContext,_,_,_,_)`` with `DispatchQueue.global()`'s context (as in
    /// BrightFutures, not the default context).
    ///
    /// ```swift
    /// fibonacciSequence.fold(0, f: { $0 + $1 }).onSuccess { sum in
    ///     // sum is 143 for the first ten fibonacci numbers
    /// }
    /// ```
    public func fold<T, E, R>(
        _ zero: R, file: StaticString = #fileID, line: UInt = #line, f: @escaping @Sendable (R, T) -> R
    ) -> Future<R, E> where Element == Future<T, E> {
        fold(ExecutionContext(queue: .global()), zero: zero, file: file, line: line, f: f)
    }

    /// Folds the values of a sequence of futures into one value: `f(…f(f(zero, v0), v1)…, vn)`.
    ///
    /// `f` runs on `context`, for the values in list order, one call after the other, once every future
    /// has succeeded. If a future fails, the returned future fails with the first failure in list order
    /// (see `sequence()`) and `f` does not run. O(n) in the number of futures (plus what `f` costs).
    /// A cancellation request on the
    /// result is forwarded to every input still pending, as one of its consumers.
    public func fold<T, E, R>(
        _ context: ExecutionContext,
        zero: R,
        file: StaticString = #fileID,
        line: UInt = #line,
        f: @escaping @Sendable (R, T) -> R
    ) -> Future<R, E> where Element == Future<T, E> {
        // The one gatherer, then one step that folds the values; both named `fold` at the caller's line.
        Gatherer<AllValues<T>, E>.start(
            Array(self), mode: .all(failsOnArrival: false), step: "fold", file: file, line: line
        )
        .future
        .derive(context, step: "fold", file: file, line: line) { result, future in
            future.complete(result.map { values in values.reduce(zero, f) })
        }
    }
}
