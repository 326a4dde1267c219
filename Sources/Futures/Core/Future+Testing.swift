// Test hooks of the core: internal, read by the tests through `@testable import`.

extension Future {
    /// Whether a waiter's wake-up is registered on this pending future (`forced()` went past its spin
    /// and blocked). For tests.
    var hasRegisteredWaiterForTesting: Bool {
        lock.lock()
        defer { lock.unlock() }
        return withState { state in
            guard case .pending(let list) = state else { return false }
            var found = false
            list.forEach { entry in
                if case .wakeUp = entry { found = true }
            }
            return found
        }
    }

    /// The consumers registered on this pending future, as a cancellation request counts them (the tally's
    /// count once there is one); `0` once completed. For tests.
    var consumerCountForTesting: Int {
        lock.lock()
        defer { lock.unlock() }
        if completed { return 0 }
        if tallied, let tally = withState({ $0.consumerTally }) { return Int(tally.consumers) }
        return Int(withState { $0.pendingEntries.liveConsumerCount })
    }
}
