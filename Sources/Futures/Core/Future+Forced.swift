internal import CFuturesShims
import Dispatch
import Synchronization

extension Future {
    /// Blocks the calling thread until the future completes, and returns its result.
    ///
    /// The waiting thread is woken at completion, before any callback runs and without waiting for one,
    /// so it never waits for a callback scheduled on its own queue. It **deadlocks** only if the future can be
    /// completed solely by work that needs the blocked thread itself: for example blocking the main
    /// thread on a future that is completed by a block on the main queue. Prefer ``get()`` in async code.
    ///
    /// Before it blocks, it watches the future for up to 25 µs, busy (with a CPU spin hint), because
    /// waking a blocked thread costs about that much: a result another thread is about to deliver (a
    /// block just handed to a queue) then arrives without putting this thread to sleep.
    @inlinable
    public func forced() -> Result<T, E> {
        if let result { return result }
        // Work this thread queued on its trampoline (a deep immediate chain) may be what completes this
        // future: run it before blocking, or the outermost frame would wait for this blocked one.
        Trampoline.runQueuedBeforeBlocking()
        if spinsUntilCompleted(), let result { return result }
        let semaphore = DispatchSemaphore(value: 0)
        onCompletionWakeUp { _ in semaphore.signal() }
        semaphore.wait()
        return result!
    }

    /// How long ``forced()`` watches the future before it blocks: about what waking a sleeping thread
    /// costs on an idle core (measured 20–30 µs here). A completion that another thread is about to make
    /// (a block just handed to a queue) then needs no wake-up of this thread at all.
    @usableFromInline
    static var spinBeforeBlockingNanoseconds: UInt64 { 25_000 }

    /// Watches the completed bit without the lock (see *Settled futures* in Future+Storage.swift) for at
    /// most ``spinBeforeBlockingNanoseconds``, with a CPU spin hint between looks; returns whether the
    /// future completed meanwhile. Reads the clock once every 32 looks.
    @usableFromInline
    func spinsUntilCompleted() -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        while true {
            for _ in 0..<32 {
                if flagWord.load(ordering: .relaxed) & Flags.completed != 0 { return true }
                cfutures_spin_hint()
            }
            if DispatchTime.now().uptimeNanoseconds &- start >= Self.spinBeforeBlockingNanoseconds { return false }
        }
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
