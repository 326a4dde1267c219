extension Future where E == Never {
    /// Gives a future that cannot fail any error type, so it combines with futures that can (e.g. in
    /// ``zip(_:file:line:)-swift.method``, `sequence()` or `firstCompleted()`).
    ///
    /// Safe: the result is the same success. No closure of yours runs. Completed at once when this
    /// future is. Cancellation requests are forwarded to this future.
    @inlinable
    public func promoteError<E1: Error>(file: StaticString = #fileID, line: UInt = #line) -> Future<T, E1> {
        derive(
            ResultForm<T, Never, T, E1>.self,
            with: { result in
                switch result {
                case .success(let value): return .success(value)
                }
            }, .immediate, step: "promoteError", file: file, line: line)
    }
}

extension Future where T == Never {
    /// Gives a future that cannot succeed any value type, so it combines with futures that can.
    ///
    /// Safe: the result is the same failure. No closure of yours runs. Completed at once when this
    /// future is. Cancellation requests are forwarded to this future.
    @inlinable
    public func promoteValue<U>(file: StaticString = #fileID, line: UInt = #line) -> Future<U, E> {
        derive(
            ResultForm<Never, E, U, E>.self,
            with: { result in
                switch result {
                case .failure(let error): return .failure(error)
                }
            }, .immediate, step: "promoteValue", file: file, line: line)
    }
}

extension Future {
    /// Turns a `Future<T, CombinatorError<Never>>` into one whose error can also be
    /// ``CombinatorError/external(_:)`` of any `E1`, keeping every other case as it is.
    ///
    /// Use it to combine an ``InvalidationToken/future`` (or a filtered `Never`-failing future) with
    /// futures that fail with `CombinatorError<E1>`. Nothing runs on a context: the returned future
    /// completes on the thread that completes this one, with the same value or the same case. It is a
    /// step named `promoteError` at the caller's `file` and `line` (failure traces, the pending-futures
    /// report), and one consumer of this future: a cancellation request on it is passed on as that
    /// consumer's ask.
    ///
    /// - Parameters:
    ///   - file: The caller's file, where the step is recorded (leave the default).
    ///   - line: The caller's line, where the step is recorded (leave the default).
    /// - Returns: A future with this future's value, or the same case of `CombinatorError<E1>`.
    public func promoteError<E1>(
        file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, CombinatorError<E1>> where E == CombinatorError<Never> {
        let promote: @Sendable (CombinatorError<Never>) -> CombinatorError<E1> = { error in
            switch error {
            case .noSuchElement: return .noSuchElement
            case .invalidationTokenInvalidated: return .invalidationTokenInvalidated
            case .illegalState: return .illegalState
            }
        }
        return derive(
            MapErrorForm<T, CombinatorError<Never>, CombinatorError<E1>>.self, with: promote, .immediate,
            step: "promoteError", file: file, line: line)
    }
}
