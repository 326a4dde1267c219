import Futures

/// The error of a task from ``Task/whenAll(_:file:line:)-([Task<TResult>],_,_)`` whose tasks faulted: every error,
/// in the order of the tasks (Bolts-Swift's `AggregateError`).
///
/// Used as soon as one task faulted (and none was cancelled), even if only one did.
public struct AggregateError: Error, CustomStringConvertible {
    /// The errors of the faulted tasks, in list order.
    public let errors: [any Error]

    /// Creates an aggregate of `errors`.
    public init(errors: [any Error]) {
        self.errors = errors
    }

    /// `AggregateError(n errors: e1, e2, …)`.
    public var description: String {
        "AggregateError(\(errors.count) errors: \(errors.map { String(describing: $0) }.joined(separator: ", ")))"
    }
}

/// Throw this from a task's closure (or a continuation) to cancel the task it completes (Bolts-Swift's
/// `CancelledError`): the task reads as ``Task/cancelled``, not as ``Task/faulted``.
///
/// A task that is *given* this error (``Task/init(error:)``, ``TaskCompletionSource/set(error:file:line:)``)
/// faults with it, as in Bolts-Swift; only a throw from a closure means cancellation. The library's own
/// cancellation error, `FuturesError.cancelled`, and Swift's `CancellationError` cancel wherever they appear.
public struct CancelledError: Error {
    /// Creates a cancelled error.
    public init() {}
}

/// The outcome of a closure: its value, or its error, where a thrown ``CancelledError`` means cancelled
/// (the core's `FuturesError.cancelled`).
@inlinable
func settle<S>(_ body: () throws -> S) -> Result<S, any Error> {
    do {
        return .success(try body())
    } catch is CancelledError {
        return .failure(FuturesError.cancelled)
    } catch {
        return .failure(error)
    }
}
