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
        if let result { return result }
        // Work this thread queued on its trampoline (a deep immediate chain) may be what completes this
        // future: run it before blocking, or the outermost frame would wait for this blocked one.
        Trampoline.runQueuedBeforeBlocking()
        if let result { return result }
        let semaphore = DispatchSemaphore(value: 0)
        onCompletionWakeUp { _ in semaphore.signal() }
        semaphore.wait()
        return result!
    }

    /// Blocks the calling thread until the future completes or `deadline` passes.
    ///
    /// - Returns: The result, or `nil` if `deadline` passed first (the future is not affected). A wait
    ///   that times out takes its waiter back, so polling with short deadlines leaves nothing behind.
    public func forced(_ deadline: DispatchTime) -> Result<T, E>? {
        if let result { return result }
        Trampoline.runQueuedBeforeBlocking()
        if let result { return result }
        let semaphore = DispatchSemaphore(value: 0)
        let waiter = RemovableEntry<T, E>(.wakeUp { _ in semaphore.signal() })
        guard addRemovable(waiter) else { return result }
        if semaphore.wait(timeout: deadline) == .success || !removeEntry(waiter) {
            // Woken, or the completion took the waiter just as the deadline passed: the result is there.
            return result
        }
        return nil
    }
}
