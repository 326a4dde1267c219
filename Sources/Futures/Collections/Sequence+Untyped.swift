// SimpleFutures' collection combinators on sequences of untyped futures.

extension Sequence {
    /// Combines the values of these futures, in list order, into one value (SimpleFutures' `fold`).
    ///
    /// - Parameters:
    ///   - context: Where `combine` runs (once per element, in list order, within one callback);
    ///     ``defaultContext()`` if omitted.
    ///   - initial: The starting value.
    ///   - combine: Folds the accumulated value with the next future's value; what it throws fails
    ///     the returned future.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future of the folded value. It fails with the first failure in list order (as soon
    ///   as every earlier future has succeeded). O(n) in the number of futures.
    @_disfavoredOverload
    @usableFromInline
    package func fold<T, R: Sendable>(
        context: ExecutionContext = defaultContext(),
        initial: R,
        combine: @escaping @Sendable (R, T) throws -> R,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<R, any Error> where Element == Future<T, any Error> {
        untypedCollect(Array(self), "fold", file: file, line: line, on: context) { values in
            try values.reduce(initial, combine)
        }
    }

    /// Turns these futures into one future of all their values, in list order (SimpleFutures' `sequence`).
    ///
    /// - Parameters:
    ///   - context: Where the returned future is completed; ``defaultContext()`` if omitted.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future of every value; it fails with the first failure in list order. An empty
    ///   sequence gives `[]`. O(n).
    @_disfavoredOverload
    @usableFromInline
    package func sequence<T>(
        context: ExecutionContext = defaultContext(), file: StaticString = #fileID, line: UInt = #line
    ) -> Future<[T], any Error> where Element == Future<T, any Error> {
        untypedCollect(Array(self), "sequence", file: file, line: line, on: context) { $0 }
    }

    /// Starts a future for every element with `mapping`, then collects their values in list order
    /// (SimpleFutures' `traverse`).
    ///
    /// - Parameters:
    ///   - context: Where the returned future is completed; ``defaultContext()`` if omitted.
    ///   - mapping: Called at once, on the calling thread, for every element, in order.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future of every value, failing with the first failure in list order. O(n).
    @_disfavoredOverload
    @usableFromInline
    package func traverse<U>(
        context: ExecutionContext = defaultContext(),
        mapping: (Element) -> Future<U, any Error>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<[U], any Error> {
        untypedCollect(map(mapping), "traverse", file: file, line: line, on: context) { $0 }
    }
}

/// Collects the values of `futures` in list order; fails with the first failure in list order, as soon
/// as every earlier future has succeeded: the library's one gatherer, ``Gatherer``. `combine` then runs
/// on `context` with the values, as a second step; both steps are named `step` at the caller's `file`
/// and `line`. What `combine` throws fails the returned future.
func untypedCollect<T, R>(
    _ futures: [Future<T, any Error>], _ step: StaticString, file: StaticString, line: UInt,
    on context: ExecutionContext, _ combine: @escaping @Sendable ([T]) throws -> R
) -> Future<R, any Error> {
    Gatherer<AllValues<T>, any Error>.start(
        futures, mode: .all(failsOnArrival: false), step: step, file: file, line: line
    )
    .future
    .derive(context, step: step, file: file, line: line) { result, future in
        future.complete(result.flatMap { values in Result { try combine(values) } })
    }
}
