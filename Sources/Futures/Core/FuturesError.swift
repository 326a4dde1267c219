/// Errors raised by the library itself, for futures whose failure type can hold them.
public enum FuturesError: Error, Sendable, Equatable {
    /// The ``Promise`` responsible for this future was deallocated without completing it.
    case brokenPromise
    /// A filter (`withFilter`, `filter`) rejected the value.
    case noSuchElement
    /// The operation was cancelled before it produced a result.
    case cancelled
    /// The operation did not complete before its deadline.
    case timedOut
    /// A completion handler reported neither a value nor an error (`(nil, nil)`); see `future(method:)`.
    case invalidValue
    /// The work was still pending when a drain gave up on it at shutdown: its owner (a
    /// ``ConcurrencyLimiter`` item, or a future in `FuturesServiceLifecycle`'s `InFlightFutures`) was
    /// ended by `DrainingService` once its deadline passed or the service was cancelled. The work itself
    /// may still run: it ignored the cancellation request the drain made first.
    case shutDown
}
