extension Future {
    /// Waits, without blocking a thread, for the future to complete; returns the value or throws the error.
    ///
    /// Throws exactly `E` (typed throws). For `Future<T, Never>` it does not throw: `await future.get()`.
    /// Any number of tasks may await one future at once; each is resumed as soon as the future completes,
    /// ahead of the callbacks' turns (a waiting task never waits for a callback on a busy queue).
    ///
    /// The waiting task is not cancelled by the future, and awaiting never blocks the main thread.
    public func get() async throws(E) -> T {
        if let result { return try result.get() }
        let result = await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, E>, Never>) in
            onCompletionWakeUp { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}
