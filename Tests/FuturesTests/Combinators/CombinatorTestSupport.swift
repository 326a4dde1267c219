import Futures

/// Errors for combinator and collection tests.
enum ComboError: Error, Equatable {
    case first
    case second
}

/// A context that counts the tasks it runs, and runs them at once.
func countingContext(_ counter: Counter) -> ExecutionContext {
    ExecutionContext { task in
        counter.increment()
        task()
    }
}

extension Result {
    /// The failure, or `nil`.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension CombinatorError {
    /// A description of the case, for comparisons in tests that do not rely on `Equatable`.
    var caseName: String {
        switch self {
        case .noSuchElement: return "noSuchElement"
        case .invalidationTokenInvalidated: return "invalidationTokenInvalidated"
        case .illegalState: return "illegalState"
        case .external(let error): return "external(\(error))"
        }
    }
}
