import Dispatch

extension Sequence {
    /// The first value, in list order, that passes `p`; `p` runs on a global queue.
    ///
    /// Same as ``find(_:p:file:line:)-(ExecutionContext,_,_,_)`` with `DispatchQueue.global()`'s context (as in
    /// BrightFutures).
    public func find<T, E>(
        _ p: @escaping @Sendable (T) -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, CombinatorError<E>> where Element == Future<T, E> {
        find(ExecutionContext(queue: .global()), p: p, file: file, line: line)
    }

    /// The first value, in list order, that passes `p`.
    ///
    /// Waits for every future (see `sequence()`), then runs `p` on `context` over the values in list
    /// order, stopping at the first match. Fails with ``CombinatorError/noSuchElement`` when no value
    /// matches, and with ``CombinatorError/external(_:)`` wrapping the first failure in list order
    /// when a future fails (then `p` does not run). A cancellation request on the
    /// result is forwarded to every input still pending, as one of its consumers. The gathering and the
    /// search are named `find` at the caller's `file` and `line` in failure traces and the
    /// pending-futures report.
    public func find<T, E>(
        _ context: ExecutionContext,
        p: @escaping @Sendable (T) -> Bool,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, CombinatorError<E>> where Element == Future<T, E> {
        let gathered = Gatherer<AllValues<T>, E>.start(
            Array(self), mode: .all(failsOnArrival: false), step: "find", file: file, line: line
        )
        .future
        return gathered.derive(context, step: "find", file: file, line: line) { result, future in
            switch result {
            case .success(let values):
                if let match = values.first(where: p) {
                    future.complete(.success(match))
                } else {
                    future.complete(.failure(.noSuchElement))
                }
            case .failure(let error):
                future.complete(.failure(.external(error)))
            }
        }
    }
}
