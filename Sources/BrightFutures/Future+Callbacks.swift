extension Future {
    /// BrightFutures' name for the type of an `onComplete` callback.
    public typealias CompletionCallback = @Sendable (_ result: Result<T, E>) -> Void
    /// BrightFutures' name for the type of an `onSuccess` callback.
    public typealias SuccessCallback = @Sendable (T) -> Void
    /// BrightFutures' name for the type of an `onFailure` callback.
    public typealias FailureCallback = @Sendable (E) -> Void
}

extension Async where Value: ResultProtocol {
    /// Waits, without blocking a thread, for the result: returns the value or throws the error
    /// (`Async.get()` with the result unpacked). Cancelling the waiting task does not stop the
    /// wait. (Chosen over `Async.get()`, which returns the `Result` itself, as in BrightFutures.)
    public func get() async throws -> Value.Value {
        try await get().result.get()
    }
}

extension Async where Value: ResultProtocol, Value.Error == Never {
    /// Waits, without blocking a thread, for the value of a result that cannot fail.
    public func get() async -> Value.Value {
        switch await get().result {
        case .success(let value): return value
        }
    }
}
