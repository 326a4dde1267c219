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
    /// - Returns: A future of the folded value. It fails with the first failure in list order (as soon
    ///   as every earlier future has succeeded). O(n) in the number of futures.
    @_disfavoredOverload
    public func fold<T, R: Sendable>(
        context: ExecutionContext = defaultContext(),
        initial: R,
        combine: @escaping @Sendable (R, T) throws -> R
    ) -> Future<R, any Error> where Element == Future<T, any Error> {
        untypedCollect(Array(self)).map(context: context) { values in
            try values.reduce(initial, combine)
        }
    }

    /// Turns these futures into one future of all their values, in list order (SimpleFutures' `sequence`).
    ///
    /// - Parameter context: Where the returned future is completed; ``defaultContext()`` if omitted.
    /// - Returns: A future of every value; it fails with the first failure in list order. An empty
    ///   sequence gives `[]`. O(n).
    @_disfavoredOverload
    public func sequence<T>(context: ExecutionContext = defaultContext()) -> Future<[T], any Error>
    where Element == Future<T, any Error> {
        untypedCollect(Array(self)).map(context: context) { $0 }
    }

    /// Starts a future for every element with `mapping`, then collects their values in list order
    /// (SimpleFutures' `traverse`).
    ///
    /// - Parameters:
    ///   - context: Where the returned future is completed; ``defaultContext()`` if omitted.
    ///   - mapping: Called at once, on the calling thread, for every element, in order.
    /// - Returns: A future of every value, failing with the first failure in list order. O(n).
    @_disfavoredOverload
    public func traverse<U>(
        context: ExecutionContext = defaultContext(),
        mapping: (Element) -> Future<U, any Error>
    ) -> Future<[U], any Error> {
        untypedCollect(map(mapping)).map(context: context) { $0 }
    }
}

/// Collects the values of `futures` in list order; fails with the first failure in list order, as soon
/// as every earlier future has succeeded: the library's one gatherer, ``Gatherer``.
func untypedCollect<T>(
    _ futures: [Future<T, any Error>], file: StaticString = #fileID, line: UInt = #line
) -> Future<[T], any Error> {
    Gatherer<AllValues<T>, any Error>.start(
        futures, mode: .all(failsOnArrival: false), step: "sequence", file: file, line: line
    )
    .future
}
