/// Reading a future's outcome: ``result`` and ``error``.
///
/// ``Future`` conforms; on a future these read as members of its own: `future.result`, `future.error`.
/// They are declared here rather than in the class so that a face's own subclass of `Future` in this
/// package can give the two names its original's meaning (BoltsSwift's `Task`: `result` is the value and
/// `error` is `nil` when cancelled), which a member of the class would forbid.
public protocol FutureOutcome<T, E>: AnyObject {
    /// The type of the value.
    associatedtype T: Sendable
    /// The type of the error.
    associatedtype E: Error

    /// The result, or `nil` while pending. Use ``result`` instead.
    var _outcome: Result<T, E>? { get }
}

// Disfavoured: where a subclass declares its own `result` and `error`, those win, and the type checker
// tries them first.
extension FutureOutcome {
    /// The result, or `nil` while pending.
    @inlinable
    @_disfavoredOverload
    public var result: Result<T, E>? {
        _outcome
    }

    /// The error if completed with a failure, else `nil`.
    @inlinable
    @_disfavoredOverload
    public var error: E? {
        if case .failure(let error) = _outcome { return error }
        return nil
    }
}

extension Future: FutureOutcome {}
