import Dispatch

extension Sequence {
    /// The first value, in list order, that passes `p`; `p` runs on a global queue.
    ///
    /// Same as ``find(_:p:)-(ExecutionContext,_)`` with `DispatchQueue.global()`'s context (as in
    /// BrightFutures).
    public func find<T, E>(_ p: @escaping @Sendable (T) -> Bool) -> Future<T, BrightFuturesError<E>>
    where Element == Future<T, E> {
        find(ExecutionContext(queue: .global()), p: p)
    }

    /// The first value, in list order, that passes `p`.
    ///
    /// Waits for every future (see `sequence()`), then runs `p` on `context` over the values in list
    /// order, stopping at the first match. Fails with ``BrightFuturesError/noSuchElement`` when no value
    /// matches, and with ``BrightFuturesError/external(_:)`` wrapping the first failure in list order
    /// when a future fails (then `p` does not run). A cancellation request on the
    /// result is forwarded to every input still pending, as one of its consumers.
    public func find<T, E>(
        _ context: ExecutionContext,
        p: @escaping @Sendable (T) -> Bool
    ) -> Future<T, BrightFuturesError<E>> where Element == Future<T, E> {
        sequence()
            .mapError(immediateExecutionContext) { BrightFuturesError<E>.external($0) }
            .flatMap(context) { values -> Result<T, BrightFuturesError<E>> in
                guard let match = values.first(where: p) else { return .failure(.noSuchElement) }
                return .success(match)
            }
    }

    /// ``find(_:p:)-(ExecutionContext,_)`` with BrightFutures' function form of a context.
    public func find<T, E>(
        _ context: @escaping ExecutionContextFunction,
        p: @escaping @Sendable (T) -> Bool
    ) -> Future<T, BrightFuturesError<E>> where Element == Future<T, E> {
        find(ExecutionContext(context), p: p)
    }
}
