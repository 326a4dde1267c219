extension Sequence {
    /// Waits for every future and keeps every outcome, in list order: a future that never fails.
    ///
    /// Where ``sequence(file:line:)`` stops at the first failure, this collects each future's result, success or
    /// failure, in the position of its future (JavaScript's `Promise.allSettled`). The returned future
    /// completes once every input has completed; an empty sequence gives `[]` at once.
    ///
    /// ```swift
    /// let outcomes = try await urls.map { session.dataFuture(from: $0) }.settled().get()
    /// let pages = outcomes.compactMap { try? $0.get() }
    /// let failures = outcomes.filter { if case .failure = $0 { true } else { false } }.count
    /// ```
    ///
    /// No closure of yours runs; the result is built on the thread that completes the last input. O(n)
    /// time and memory (one slot per input, through the same collector as
    /// ``sequence(file:line:)``), stack-safe for any length.
    ///
    /// **Cancellation:** a request on the returned future is forwarded to every input still pending, as
    /// one of its consumers (GUARANTEES.md G8). The inputs decide how they end, and their outcomes
    /// (typically cancellation errors) are collected like any other.
    public func settled<T, E>() -> Future<[Result<T, E>], Never> where Element == Future<T, E> {
        SequenceCollector.collectSettled(Array(self)).future
    }
}
