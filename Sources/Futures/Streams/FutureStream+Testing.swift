extension FutureStream {
    /// How many subscribers are registered right now (for tests).
    var subscriberCountForTesting: Int {
        lock.withLock { state.live }
    }

    /// How many slots the subscriber table holds, tombstones of removed subscribers included (for
    /// tests: at most about twice the subscribers).
    var storedSlotCountForTesting: Int {
        lock.withLock { state.slots.count }
    }

    /// The slots visited, looked up or moved so far by the stream's state (for the cost tests, which
    /// compare it at n and 10n).
    var stepsForTesting: Int {
        lock.withLock { state.steps }
    }
}
