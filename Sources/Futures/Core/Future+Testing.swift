// Test hooks of the core: internal, read by the tests through `@testable import`.

extension Future {
    /// Whether a waiter's wake-up is registered on this pending future (`forced()` went past its spin
    /// and blocked). For tests.
    var hasRegisteredWaiterForTesting: Bool {
        withCellLocked {
            withState { state in
                guard case .pending(let list) = state else { return false }
                var found = false
                list.forEach { entry in
                    if case .wakeUp = entry { found = true }
                }
                return found
            }
        }
    }

    /// The consumers registered on this pending future, as a cancellation request counts them (the tally's
    /// count once there is one); `0` once completed. For tests.
    var consumerCountForTesting: Int {
        withCellLocked {
            if completed { return 0 }
            if tallied, let tally = withState({ $0.consumerTally }) { return Int(tally.consumers) }
            return Int(withState { $0.pendingEntries.liveConsumerCount })
        }
    }
}

/// A defect of the cell's protocol, made on purpose by ``Future/corruptForTesting(_:)`` to show that the
/// invariant check catches it. For tests.
enum CellCorruptionForTesting {
    /// A completion that handed the callbacks out but left them stored (they would run a second time):
    /// the completed flag is set while the state is still pending. Made a second time, it is undone.
    case callbacksKeptAfterCompletion
    /// A removal that took an asking entry's closure but kept its ask: the first removable entry that asked
    /// holds nothing and is still counted as asked.
    case askKeptAfterRemoval
    /// An ask counted once too often: the tally's asks reach its consumers without a request.
    case askCountedTwice
    /// A completion that marked a value needing destruction as trivial (`deinit` would leak it). Made a
    /// second time, it is undone.
    case trivialPayloadFlipped
}

extension Future {
    /// The rules the cell breaks right now (see `invariantViolationsLocked()`), read under the lock but outside
    /// the critical region, whose own check would stop the process. For tests.
    var invariantViolationsForTesting: [String] {
        lock.withLock { invariantViolationsLocked() }
    }

    /// Breaks the cell as a defect of its protocol would (see ``CellCorruptionForTesting``), under the lock but
    /// outside the critical region. For tests of the invariant check.
    func corruptForTesting(_ corruption: CellCorruptionForTesting) {
        lock.withLock {
            switch corruption {
            case .callbacksKeptAfterCompletion:
                completed.toggle()  // a second call repairs it, so that the cell can be released
            case .askKeptAfterRemoval:
                withState { state in
                    state.pendingEntries.forEach { entry in
                        if case .removable(let removable) = entry, removable.phase == .asked {
                            removable.kind = nil
                        }
                    }
                }
            case .askCountedTwice:
                if let tally = withState({ $0.consumerTally }) { tally.asks = tally.consumers }
            case .trivialPayloadFlipped:
                flags ^= Representation.trivialPayload
            }
        }
    }
}
