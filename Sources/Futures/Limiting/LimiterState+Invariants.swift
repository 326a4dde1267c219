// The rules of a limiter's whole state that hold between its critical regions. Debug builds check them at
// the end of every region (`ConcurrencyLimiter.withState`); a violation stops the process with the rules that
// broke.

extension LimiterState {
    /// Stops the process with a description of every broken rule if the state is not one the limiter can
    /// reach. Under the limiter's lock.
    func _checkInvariants() {
        let violations = invariantViolations
        if !violations.isEmpty {
            preconditionFailure("Futures: a ConcurrencyLimiter's state broke its invariants: \(violations)")
        }
    }

    /// The rules the state breaks, each described in a sentence; empty when it is sound.
    ///
    /// - At most `maxConcurrent` items run.
    /// - The queued count is the number of items waiting in the queues, each of which knows its slot.
    /// - No item waits while a slot is free (an item that finishes starts the next), and none waits once the
    ///   limiter is closed.
    /// - No running item believes it is queued.
    var invariantViolations: [String] {
        var violations: [String] = []
        if running.count > maxConcurrent {
            violations.append("\(running.count) items run, more than \(maxConcurrent)")
        }
        // The slots are walked when there are few (64 or fewer) or their number is a power of two, so that n
        // submissions cost O(n) checking in all, not O(n²); in between, the queues' own counts are summed.
        var waiting = 0
        let stored = storedSlots
        if stored <= 64 || stored & (stored &- 1) == 0 {
            for queue in queues {
                for (index, slot) in queue.slots.enumerated() {
                    guard let item = slot else { continue }
                    waiting += 1
                    if item.queueIndex != index {
                        violations.append("a queued item at slot \(index) believes it is at \(item.queueIndex)")
                    }
                }
            }
        } else {
            waiting = queues.reduce(0) { $0 + $1.count }
        }
        if waiting != queuedCount {
            violations.append("the queued count is \(queuedCount) but \(waiting) items wait")
        }
        if queuedCount > 0, running.count < maxConcurrent {
            violations.append("\(queuedCount) items wait while \(maxConcurrent - running.count) slots are free")
        }
        if isClosed, queuedCount > 0 {
            violations.append("\(queuedCount) items wait in a closed limiter")
        }
        for item in running.values where item.isQueued {
            violations.append("a running item believes it is queued")
        }
        return violations
    }
}
