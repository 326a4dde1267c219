extension Future {
    /// Pairs this future's value with `other`'s.
    ///
    /// The returned future succeeds with both values once both have succeeded. It fails with this
    /// future's error as soon as this future fails; otherwise, after this future succeeded, with
    /// `other`'s error. So when both fail, the receiver's error wins (as in BrightFutures). No closure of
    /// yours runs; the pair is built on the thread that completes the last of the two. When both are
    /// already completed, the returned future is too. A cancellation request on the returned future is
    /// forwarded to this future while it is pending, then to `other` (each as one of its consumers).
    ///
    /// ```swift
    /// Future<Int, Never>(value: 1).zip(Future(value: 2)).onSuccess { a, b in
    ///     // a is 1, b is 2
    /// }
    /// ```
    public func zip<U>(_ other: Future<U, E>) -> Future<(T, U), E> {
        let ready = ifCompleted { result -> Result<(T, U), E>? in
            switch result {
            case .failure(let error):
                return .failure(error)
            case .success(let value):
                return other.result.map { otherResult in otherResult.map { (value, $0) } }
            }
        }
        if let ready = ready ?? nil {
            return Future<(T, U), E>(result: ready)
        }
        return derive(immediateExecutionContext) { result, future in
            switch result {
            case .failure(let error):
                future.complete(.failure(error))
            case .success(let value):
                other.whenComplete(immediateExecutionContext) { otherResult in
                    future.complete(otherResult.map { (value, $0) })
                }
                future.forwardsCancellation(to: other)
            }
        }
    }
}
