/// The errors BrightFutures' operations produce, wrapping the future's own error type `E`.
///
/// `filter` and `find` fail with ``noSuchElement`` when nothing matches, and with ``external(_:)`` when
/// the future they work on failed. ``InvalidationToken/future`` fails with ``invalidationTokenInvalidated``.
public enum BrightFuturesError<E: Error>: Error {
    /// No element matched, e.g. while filtering or finding.
    case noSuchElement

    /// The ``InvalidationToken`` was invalidated.
    case invalidationTokenInvalidated

    /// A state that should be unreachable was reached.
    case illegalState

    /// An error of the underlying future.
    case external(E)

    /// Wraps `external` in ``external(_:)``.
    public init(external: E) {
        self = .external(external)
    }
}

/// Two errors are equal when their cases are equal and, for ``BrightFuturesError/external(_:)``, their
/// wrapped errors are. (BrightFutures forgot ``BrightFuturesError/illegalState``; here every case counts.)
extension BrightFuturesError: Equatable where E: Equatable {}

/// Hashes the case and, for ``BrightFuturesError/external(_:)``, the wrapped error.
extension BrightFuturesError: Hashable where E: Hashable {}
