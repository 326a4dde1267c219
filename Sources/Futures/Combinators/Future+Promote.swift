extension Future where E == Never {
    /// Gives a future that cannot fail any error type, so it combines with futures that can (e.g. in
    /// ``zip(_:file:line:)-swift.method``, `sequence()` or `firstCompleted()`).
    ///
    /// Safe: the result is the same success. No closure of yours runs. Completed at once when this
    /// future is. Cancellation requests are forwarded to this future.
    @inlinable
    public func promoteError<E1: Error>(file: StaticString = #fileID, line: UInt = #line) -> Future<T, E1> {
        if let promoted = ifCompleted({ result -> Future<T, E1> in
            switch result {
            case .success(let value): return Future<T, E1>(value: value)
            }
        }) {
            return promoted
        }
        return derive(immediateExecutionContext, step: "promoteError", file: file, line: line) { result, future in
            switch result {
            case .success(let value): future.complete(.success(value))
            }
        }
    }
}

extension Future where T == Never {
    /// Gives a future that cannot succeed any value type, so it combines with futures that can.
    ///
    /// Safe: the result is the same failure. No closure of yours runs. Completed at once when this
    /// future is. Cancellation requests are forwarded to this future.
    @inlinable
    public func promoteValue<U>(file: StaticString = #fileID, line: UInt = #line) -> Future<U, E> {
        if let promoted = ifCompleted({ result -> Future<U, E> in
            switch result {
            case .failure(let error): return Future<U, E>(error: error)
            }
        }) {
            return promoted
        }
        return derive(immediateExecutionContext, step: "promoteValue", file: file, line: line) { result, future in
            switch result {
            case .failure(let error): future.complete(.failure(error))
            }
        }
    }
}
