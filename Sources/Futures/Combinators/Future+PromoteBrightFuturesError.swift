extension Future {
    /// Turns a `Future<T, BrightFuturesError<Never>>` into one whose error can also be
    /// ``BrightFuturesError/external(_:)`` of any `E1`, keeping every other case as it is.
    ///
    /// Use it to combine an ``InvalidationToken/future`` (or a filtered `Never`-failing future) with
    /// futures that fail with `BrightFuturesError<E1>`. Nothing runs on a context: the returned future
    /// completes on the thread that completes this one, with the same value or the same case. It is a
    /// step named `promoteError` at the caller's `file` and `line` (failure traces, the pending-futures
    /// report), and one consumer of this future: a cancellation request on it is passed on as that
    /// consumer's ask.
    ///
    /// - Parameters:
    ///   - file: The caller's file, where the step is recorded (leave the default).
    ///   - line: The caller's line, where the step is recorded (leave the default).
    /// - Returns: A future with this future's value, or the same case of `BrightFuturesError<E1>`.
    public func promoteError<E1>(
        file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, BrightFuturesError<E1>> where E == BrightFuturesError<Never> {
        let promote: @Sendable (BrightFuturesError<Never>) -> BrightFuturesError<E1> = { error in
            switch error {
            case .noSuchElement: return .noSuchElement
            case .invalidationTokenInvalidated: return .invalidationTokenInvalidated
            case .illegalState: return .illegalState
            }
        }
        if let promoted = ifCompleted({ Future<T, BrightFuturesError<E1>>(result: $0.mapError(promote)) }) {
            return promoted
        }
        return derive(immediateExecutionContext, step: "promoteError", file: file, line: line) { result, future in
            future.complete(result.mapError(promote))
        }
    }
}
