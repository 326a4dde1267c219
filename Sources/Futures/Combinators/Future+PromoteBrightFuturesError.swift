extension Future {
    /// Turns a `Future<T, BrightFuturesError<Never>>` into one whose error can also be
    /// ``BrightFuturesError/external(_:)`` of any `E1`, keeping every other case as it is.
    ///
    /// Use it to combine an ``InvalidationToken/future`` (or a filtered `Never`-failing future) with
    /// futures that fail with `BrightFuturesError<E1>`. Nothing runs on a context: the returned future
    /// completes on the thread that completes this one, with the same value or the same case.
    public func promoteError<E1>() -> Future<T, BrightFuturesError<E1>> where E == BrightFuturesError<Never> {
        mapError(immediateExecutionContext) { error -> BrightFuturesError<E1> in
            switch error {
            case .noSuchElement: return .noSuchElement
            case .invalidationTokenInvalidated: return .invalidationTokenInvalidated
            case .illegalState: return .illegalState
            }
        }
    }
}
