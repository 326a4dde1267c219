extension Future {
    /// Unwraps a future of a future: the returned future completes with the inner future's result.
    ///
    /// It fails with the outer future's error if the outer future fails, else with the inner one's. No
    /// closure of yours runs. When both are already completed the inner future itself is returned.
    /// Cancellation requests are not forwarded.
    public func flatten<U>() -> Future<U, E> where T == Future<U, E> {
        if let inner = withTurnIfCompleted({ result -> Future<U, E> in
            switch result {
            case .success(let inner): return inner
            case .failure(let error): return Future<U, E>(error: error)
            }
        }) {
            return inner
        }
        let future = Future<U, E>()
        whenComplete(immediateExecutionContext) { result in
            switch result {
            case .success(let inner): future.completeWith(inner)
            case .failure(let error): future.complete(.failure(error))
            }
        }
        return future
    }
}
