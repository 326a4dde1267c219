extension Future {
    /// Unwraps a future of a future: the returned future completes with the inner future's result.
    ///
    /// It fails with the outer future's error if the outer future fails, else with the inner one's. No
    /// closure of yours runs. Cancellation requests on the returned future are forwarded to the outer
    /// future while it is pending, then to the inner one (never the pending inner future itself is returned).
    @inlinable
    public func flatten<U>(file: StaticString = #fileID, line: UInt = #line) -> Future<U, E> where T == Future<U, E> {
        if let inner = ifCompleted({ result -> Future<U, E> in
            switch result {
            case .success(let inner): return Future<U, E>.following(inner)
            case .failure(let error): return Future<U, E>(error: error)
            }
        }) {
            return inner
        }
        return derive(immediateExecutionContext, step: "flatten", file: file, line: line) { result, future in
            switch result {
            case .success(let inner): future.completeWith(inner)
            case .failure(let error): future.complete(.failure(error))
            }
        }
    }
}
