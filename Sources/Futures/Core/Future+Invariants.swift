// The rules of the whole cell — flag word, state, pending list, removable entries and consumer tally — that
// hold whenever no critical region is in progress. Debug builds check them at the end of every region
// (`withCellLocked`); a violation stops the process with the rules that broke.

extension Future {
    /// Stops the process with a description of every broken rule if the cell is not in a state its protocol
    /// can reach. Called at the end of every critical region in debug builds, under the lock.
    @usableFromInline
    final func _checkInvariants() {
        let violations = invariantViolationsLocked()
        if !violations.isEmpty {
            preconditionFailure("Futures: the cell of \(Self.self) broke its invariants: \(violations)")
        }
    }

    /// The rules the cell breaks right now, each described in a sentence; empty when it is sound. Under the lock.
    ///
    /// - The flag word is consistent with itself and with the state: completed exactly when the state has a
    ///   result, failed exactly when that result is a failure; a hand-out in progress only once completed;
    ///   late callbacks only while a hand-out is in progress, and only callbacks for other contexts.
    /// - A pending list holds at most one consumer tally, at its front, exactly when the tallied flag is set.
    /// - A removable entry in a pending list is live or has asked while it holds its closure, and is gone
    ///   (a tombstone) once it does not.
    /// - Once cancellation was requested, no cancellation handler waits in the list.
    /// - Until a request is made, the asks never reach the consumers (the request would have been made):
    ///   without a tally, no entry has asked; with one, it counts at least the live consumers and at least
    ///   the entries that asked, and its asks are fewer than its consumers unless there are none.
    final func invariantViolationsLocked() -> [String] {
        var violations: [String] = []
        let bits = flags
        let completedBit = bits & Flags.completed != 0
        let failedBit = bits & Flags.failed != 0
        let handingOutBit = bits & Flags.handingOut != 0
        let requested = bits & Flags.cancellationRequested != 0
        let talliedBit = bits & Flags.tallied != 0
        if !Self.flagsAreConsistent(bits) {
            violations.append("the flag word \(bits) has a failure or a hand-out without completion")
        }
        withState { state in
            switch state {
            case .pending(let list):
                if completedBit { violations.append("the completed flag is set while the state is pending") }
                if bits & Representation.trivialPayload != 0 {
                    violations.append("the trivial-payload bit is set while the state is pending")
                }
                Self.checkPendingList(
                    list, requested: requested, tallied: talliedBit, into: &violations)
            case .completed(let result):
                if !completedBit { violations.append("the state has a result but the completed flag is clear") }
                let trivial = result.isFailureForInvariants ? _isPOD(E.self) : _isPOD(T.self)
                if !Self.boxesState, (bits & Representation.trivialPayload != 0) != trivial {
                    violations.append("the trivial-payload bit does not match the result's type")
                }
                if failedBit != result.isFailureForInvariants {
                    violations.append("the failed flag does not match the result")
                }
            case .completedWithLate(let late):
                if !completedBit { violations.append("the state has a result but the completed flag is clear") }
                if bits & Representation.trivialPayload != 0 {
                    violations.append("the trivial-payload bit is set while late callbacks are held")
                }
                if failedBit != late.result.isFailureForInvariants {
                    violations.append("the failed flag does not match the result")
                }
                if !handingOutBit { violations.append("late callbacks are held while no hand-out is in progress") }
                late.list.forEach { entry in
                    if !FutureState<T, E>.isHandedOut(entry) {
                        violations.append("a late callback is not one for another context")
                    }
                }
            }
        }
        return violations
    }

    /// The rules of a pending list (see ``invariantViolationsLocked()``).
    ///
    /// The entries are walked when the list is short (64 entries or fewer) or its length is a power of two, so
    /// that a future with n callbacks registered one by one costs O(n) checking in all, not O(n²); in between,
    /// only the rules that need no walk are checked (the tally at the front, the flags, the tally's counts).
    static func checkPendingList(
        _ list: CallbackList<T, E>, requested: Bool, tallied: Bool, into violations: inout [String]
    ) {
        let count = list.count
        let tally = list.consumerTally
        guard count <= 64 || count & (count &- 1) == 0 else {
            if tallied != (tally != nil) {
                violations.append("the tallied flag is \(tallied) but the list's front holds no tally")
            }
            if !requested, let tally, tally.asks > 0, tally.asks >= tally.consumers {
                violations.append(
                    "every consumer asked (\(tally.asks) of \(tally.consumers)) but no request was made")
            }
            return
        }
        var index = 0
        var tallies = 0
        var talliedAtFront = false
        var askedEntries: UInt32 = 0
        var liveConsumers: UInt32 = 0
        var waitingHandlers = 0
        list.forEach { entry in
            switch entry {
            case .tally:
                tallies += 1
                if index == 0 { talliedAtFront = true }
            case .cancellation:
                waitingHandlers += 1
            case .inline, .scheduled, .wakeUp:
                liveConsumers += 1
            case .observer:
                break
            case .removable(let removable):
                switch (removable.phase, removable.kind == nil) {
                case (.live, false), (.asked, false), (.gone, true):
                    break
                case (let phase, let empty):
                    violations.append(
                        "a removable entry in the list is \(phase) and \(empty ? "holds nothing" : "holds its closure")"
                    )
                }
                if removable.phase == .asked { askedEntries += 1 }
                if removable.kind != nil {
                    if removable.isConsumer { liveConsumers += 1 } else { waitingHandlers += 1 }
                }
            }
            index += 1
        }
        if tallies > 1 || (tallies == 1 && !talliedAtFront) {
            violations.append("the list holds \(tallies) tallies, not one at its front")
        }
        if tallied != (tallies == 1) {
            violations.append("the tallied flag is \(tallied) but the list holds \(tallies) tallies")
        }
        if requested, waitingHandlers > 0 {
            violations.append("\(waitingHandlers) cancellation handlers wait after the request was made")
        }
        guard !requested else { return }
        guard let tally else {
            if askedEntries > 0 { violations.append("\(askedEntries) entries asked, with no tally and no request") }
            return
        }
        if tally.consumers < liveConsumers {
            violations.append("the tally counts \(tally.consumers) consumers, fewer than the \(liveConsumers) live")
        }
        if tally.asks < askedEntries {
            violations.append("the tally counts \(tally.asks) asks, fewer than the \(askedEntries) entries that asked")
        }
        if tally.asks > 0, tally.asks >= tally.consumers {
            violations.append("every consumer asked (\(tally.asks) of \(tally.consumers)) but no request was made")
        }
    }
}

extension Result {
    /// Whether this is a failure (for the invariant check, which must not name the payload's type).
    var isFailureForInvariants: Bool {
        if case .failure = self { return true }
        return false
    }
}
