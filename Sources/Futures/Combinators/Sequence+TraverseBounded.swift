import Dispatch

extension Sequence where Element: Sendable {
    /// Turns every element into a future with `f`, running at most `maxConcurrent` of them at once,
    /// and collects their values in the order of the elements.
    ///
    /// ```swift
    /// let pages = urls.traverse(maxConcurrent: 4) {
    ///     session.dataFuture(from: $0)
    /// }
    /// ```
    ///
    /// BrightFutures' `traverse(_:f:)` starts every future at once; this variant starts the next element
    /// only when a running one has completed, so never more than `maxConcurrent` futures of `f` are
    /// pending at the same time (values below 1 count as 1). It runs on a ``ConcurrencyLimiter`` of its
    /// own, so elements whose futures complete at once start the next ones in bounded stack.
    ///
    /// - `f` runs on `context` (by default a global queue, as BrightFutures' `traverse`), once per
    ///   element, in the order of the elements.
    /// - Success: all values, in element order; an empty sequence succeeds with `[]` at once.
    /// - Failure: the first failure to arrive fails the result at once; no further element is started
    ///   (`f` and the elements not started are released) and cancellation of the futures still running is
    ///   requested, as one of their consumers (GUARANTEES.md G8: work someone else also waits for keeps
    ///   running).
    /// - Cancellation: a request on the returned future is passed on to the running futures, as one of
    ///   their consumers. If the failure type can hold ``FuturesError/cancelled`` (`any Error`,
    ///   `FuturesError`), no further element is started (the elements not started and `f` are released)
    ///   and the result fails with it at once; otherwise the traversal goes on, each element started
    ///   later is asked to cancel as soon as it starts, and the traversal ends as the futures decide.
    /// - Memory: the traversal is held by its running futures (through their callbacks) and by the
    ///   starts queued on `context`, not by the returned future. If every running future is abandoned by
    ///   its producer (none can complete any more), the traversal is released and the returned future
    ///   stays pending.
    public func traverse<U, E>(
        maxConcurrent: Int,
        _ context: ExecutionContext = ExecutionContext(queue: .global()),
        file: StaticString = #fileID,
        line: UInt = #line,
        f: @escaping @Sendable (Element) -> Future<U, E>
    ) -> Future<[U], E> {
        boundedTraversal(maxConcurrent: maxConcurrent, context, file: file, line: line, f: f).future
    }

    /// The engine of ``traverse(maxConcurrent:_:file:line:f:)``: a private ``ConcurrencyLimiter`` starts the
    /// elements, the one ``Gatherer``, failing on the first failure to arrive gathers them.
    ///
    /// Returns the parts, so that tests can count the work they did (``ConcurrencyLimiter/steps``,
    /// ``Gatherer/steps``).
    ///
    /// Ownership (no cycles): the limiter holds the waiting elements' closures; the running futures'
    /// callbacks and the starts queued on `context` hold the limiter; the items' futures hold the
    /// collector, which holds the returned future; the returned future holds the limiter and the
    /// collector only weakly.
    func boundedTraversal<U, E>(
        maxConcurrent: Int,
        _ context: ExecutionContext,
        file: StaticString = #fileID,
        line: UInt = #line,
        f: @escaping @Sendable (Element) -> Future<U, E>
    ) -> (future: Future<[U], E>, limiter: ConcurrencyLimiter, collector: Gatherer<AllValues<U>, E>) {
        let elements = Array(self)
        let limiter = ConcurrencyLimiter(maxConcurrent: maxConcurrent, startingOn: context)
        let collector = Gatherer<AllValues<U>, E>(
            count: elements.count, mode: .all(failsOnArrival: true), step: "traverse", file: file, line: line)
        let result = collector.future
        // No elements: the gatherer has succeeded with none.
        guard !elements.isEmpty else { return (result, limiter, collector) }
        // A failure (the first one to arrive, or a cancellation) shuts the limiter: the elements not
        // started are released unrun, and each running one is asked to cancel through its item's future,
        // whose one consumer is the collector (so the work itself is asked as one consumer).
        result.observe(immediateExecutionContext) { [weak limiter] outcome in
            if case .failure = outcome { limiter?.close() }
        }
        if let cancellationError = Future<[U], E>.cancellationError {
            // Registered before the collector's forwarding: the outcome is decided first (an element that
            // fails when asked cannot replace the cancellation error), then the running elements are asked
            // (closing the limiter), then the result fails.
            result.onCancellationRequested { [weak collector, weak limiter] in
                collector?.fail(cancellationError) { limiter?.close() }
            }
        }
        for (index, element) in elements.enumerated() {
            // Closed by a failure (or a cancellation) while submitting: the rest never starts.
            if limiter.isClosed { break }
            // In turn: a request on the result reaches a waiting item only when it starts (the limiter
            // is closed first when the result can fail with a cancellation error).
            let item = limiter.submitInTurn(file: file, line: line) { f(element) }
            collector.gather(item, at: index)
        }
        return (result, limiter, collector)
    }
}
