extension Sequence {
    /// Waits for every future and keeps every outcome, in list order: a future that never fails.
    ///
    /// Where ``sequence(file:line:)`` stops at the first failure, this collects each future's result, success or
    /// failure, in the position of its future (JavaScript's `Promise.allSettled`). The returned future
    /// completes once every input has completed; an empty sequence gives `[]` at once.
    ///
    /// ```swift
    /// let outcomes = try await urls.map { session.dataFuture(from: $0) }
    ///     .settled().get()
    /// let pages = outcomes.compactMap { try? $0.get() }
    /// let failures = outcomes.filter {
    ///     if case .failure = $0 { true } else { false }
    /// }.count
    /// ```
    ///
    /// No closure of yours runs; the result is built on the thread that completes the last input. O(n)
    /// time and memory (one slot per input, through the same collector as
    /// ``sequence(file:line:)``), stack-safe for any length.
    ///
    /// **Cancellation:** a request on the returned future is forwarded to every input still pending, as
    /// one of its consumers (GUARANTEES.md G8). The inputs decide how they end, and their outcomes
    /// (typically cancellation errors) are collected like any other.
    @inlinable
    public func settled<T, E>(file: StaticString = #fileID, line: UInt = #line) -> Future<[Result<T, E>], Never>
    where Element == Future<T, E> {
        settledGatherer(file: file, line: line).future
    }

    /// The gatherer behind ``settled(file:line:)``: every outcome fills its slot as a success, so the
    /// output succeeds with all outcomes in input order once every input has completed.
    @inlinable
    func settledGatherer<T, E>(
        file: StaticString = #fileID, line: UInt = #line
    ) -> Gatherer<AllValues<Result<T, E>>, Never> where Element == Future<T, E> {
        let inputs = Array(self)
        let gatherer = Gatherer<AllValues<Result<T, E>>, Never>(
            count: inputs.count, mode: .all(failsOnArrival: false), step: "settled", file: file, line: line)
        var progress = false
        for (index, input) in inputs.enumerated() where gatherer.gatherOutcome(input, at: index) {
            progress = true
        }
        if progress { ProgressLink.aggregate(inputs, into: gatherer.future) }
        return gatherer
    }
}
