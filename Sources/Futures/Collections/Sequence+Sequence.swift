extension Sequence {
    /// Turns a sequence of futures into one future of all their values, in list order.
    ///
    /// The returned future succeeds once every future has succeeded. If any fails, it fails with the
    /// error of the first failed future **in list order**, as soon as every future before that one has
    /// succeeded (a failure behind a still pending future waits for it). An empty sequence gives `[]` at
    /// once. No closure of yours runs; the result is built on the thread that completes the deciding
    /// future. O(n) time and memory, stack-safe for any length. A cancellation request on the
    /// result is forwarded to every input still pending, as one of its consumers.
    ///
    /// ```swift
    /// let numbers = [fibonacciFuture(1), fibonacciFuture(2), fibonacciFuture(3)]
    /// numbers.sequence().onSuccess { numbers in
    ///     // numbers is [1, 1, 2]
    /// }
    /// ```
    @inlinable
    public func sequence<T, E>(file: StaticString = #fileID, line: UInt = #line) -> Future<[T], E>
    where Element == Future<T, E> {
        Gatherer<AllValues<T>, E>.start(
            Array(self), mode: .all(failsOnArrival: false), step: "sequence", file: file, line: line
        )
        .future
    }

    /// Turns a sequence of results into one result: all values in order, or the first failure.
    ///
    /// Stops reading the sequence at the first failure.
    public func sequence<T, E: Error>() -> Result<[T], E> where Element == Result<T, E> {
        var values: [T] = []
        values.reserveCapacity(underestimatedCount)
        for result in self {
            switch result {
            case .success(let value): values.append(value)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(values)
    }
}
