/// The error of a future that a combinator derives and that can fail for a reason of its own, wrapping the
/// error type `E` of the future it works on.
///
/// ``Future/filter(_:file:line:)`` and `find` fail with ``noSuchElement`` when nothing matches, and with
/// ``external(_:)`` when the future they work on failed. ``InvalidationToken/future`` fails with
/// ``invalidationTokenInvalidated``. A `Future<T, CombinatorError<Never>>` (such as that token's future)
/// becomes a `Future<T, CombinatorError<E>>` of any `E` with `promoteError()`, every case kept, so that it
/// combines with futures that can fail with `E`.
public enum CombinatorError<E: Error>: Error {
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

/// Two errors are equal when their cases are equal and, for ``CombinatorError/external(_:)``, their
/// wrapped errors are. Every case counts, ``CombinatorError/illegalState`` included.
extension CombinatorError: Equatable where E: Equatable {}

/// Hashes the case and, for ``CombinatorError/external(_:)``, the wrapped error.
extension CombinatorError: Hashable where E: Hashable {}
