/// The errors BrightFutures' combinators add to a future's own error type.
///
/// Minimal placeholder: the complete version (with `init(external:)` and `Equatable`) is owned by the
/// BrightFutures-contexts branch and replaces this file when merged.
public enum BrightFuturesError<E: Error>: Error {
    /// A filter or a search found no matching value.
    case noSuchElement
    /// A callback's invalidation token was invalidated.
    case invalidationTokenInvalidated
    /// The library reached a state it should never reach.
    case illegalState
    /// The source future failed with this error.
    case external(E)
}
