import Futures

/// Several errors reported together by ``BFTask/init(forCompletionOfAllTasks:file:line:)`` and its relatives
/// (Bolts' `BFTaskErrorDomain` / `kBFMultipleErrorsError`, whose `userInfo["errors"]` it replaces).
///
/// Only used when two or more tasks failed; a single failure is reported as that error itself.
public struct BFAggregateError: Error, CustomStringConvertible {
    /// Every error, in the order of the tasks that failed (list order, not completion order).
    public let errors: [any Error]

    /// Creates an aggregate of `errors`.
    public init(errors: [any Error]) {
        self.errors = errors
    }

    /// `BFAggregateError(n errors: e1, e2, …)`.
    public var description: String {
        "BFAggregateError(\(errors.count) errors: \(errors.map { String(describing: $0) }.joined(separator: ", ")))"
    }
}
