import Dispatch

extension Sequence {
    /// Turns every element into a future with `f` and collects their values, in order.
    ///
    /// `f` runs right away, on the calling thread, once per element, before `traverse` returns. The
    /// returned future succeeds with the values in element order, delivered through `context` (a global
    /// queue if omitted, as in BrightFutures), or fails with the first failure in element order, as
    /// `sequence()` does. O(n), stack-safe for any length. A cancellation request on the
    /// result is forwarded to every input still pending, as one of its consumers.
    ///
    /// ```swift
    /// (1...10).traverse { i in fibonacciFuture(i) }.onSuccess { numbers in
    ///     // numbers is [1, 1, 2, 3, 5, 8, 13, 21, 34, 55]
    /// }
    /// ```
    public func traverse<U, E>(
        _ context: ExecutionContext = ExecutionContext(queue: .global()),
        f: (Element) -> Future<U, E>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<[U], E> {
        let collected = Gatherer<AllValues<U>, E>.start(
            map(f), mode: .all(failsOnArrival: false), step: "traverse", file: file, line: line
        ).future
        if context.isImmediate { return collected }
        // The hand-over to `context` is a second step named `traverse` at the caller's line too.
        return collected.derive(context, step: "traverse", file: file, line: line) { result, future in
            future.complete(result)
        }
    }
}
