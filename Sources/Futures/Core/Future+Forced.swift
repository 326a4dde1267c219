import Dispatch

extension Future {
    /// Blocks the calling thread until the future completes, and returns its result.
    ///
    /// The waiting thread is woken at completion, without waiting for any callback's turn, so it never
    /// waits for a callback scheduled on its own queue. It **deadlocks** only if the future can be
    /// completed solely by work that needs the blocked thread itself: for example blocking the main
    /// thread on a future that is completed by a block on the main queue. Prefer ``get()`` in async code.
    @inlinable
    public func forced() -> Result<T, E> {
        // `.distantFuture` never times out, so the optional is always filled.
        forced(.distantFuture)!
    }

    /// Blocks the calling thread until the future completes or `deadline` passes.
    ///
    /// - Returns: The result, or `nil` if `deadline` passed first (the future is not affected).
    @inlinable
    public func forced(_ deadline: DispatchTime) -> Result<T, E>? {
        if let result { return result }
        let semaphore = DispatchSemaphore(value: 0)
        onCompletionWakeUp { _ in semaphore.signal() }
        guard semaphore.wait(timeout: deadline) == .success else { return nil }
        return result
    }
}
