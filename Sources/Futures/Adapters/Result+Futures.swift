extension Result where Success: Sendable {
    /// Chains an asynchronous step: `f` turns the value into a future; a failure becomes a failed future
    /// (and `f` does not run).
    ///
    /// `f` runs synchronously, on the calling thread.
    public func flatMap<U>(_ f: (Success) -> Future<U, Failure>) -> Future<U, Failure> {
        switch self {
        case .success(let value): return f(value)
        case .failure(let error): return Future(error: error)
        }
    }
}

extension Result {
    /// Flattens a result of a result: the outer failure, else the inner result.
    public func flatten<Value>() -> Result<Value, Failure> where Success == Result<Value, Failure> {
        switch self {
        case .success(let inner): return inner
        case .failure(let error): return .failure(error)
        }
    }
}

extension Result {
    /// Flattens a result of a future into a future: the outer failure as a failed future, else the future.
    ///
    /// Nothing runs on a context; the future returned for a success is the inner future itself.
    public func flatten<U>() -> Future<U, Failure> where Success == Future<U, Failure> {
        switch self {
        case .success(let future): return future
        case .failure(let error): return Future(error: error)
        }
    }
}
