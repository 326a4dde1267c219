/// The state machine of one future. Pure: no locking, no side effects.
///
/// ```
///                 complete(r)
///   pending ───────────────────────▶ completed(r)
///     │ register: append                 │ register: run / hand out now
///     │                                  │   (while the completer is still handing callbacks to
///     │                                  │    other contexts, one on another context queues behind
///     │                                  ▼    them instead)
///     │                        completedWithLate(r, late) ── takeLate ──▶ completed(r)
/// ```
///
/// - `pending` holds the waiting entries (callbacks, wake-ups of waiters, cancellation handlers).
/// - A result is set at most once: `complete` on a completed state is refused (`.alreadyCompleted`).
/// - Completing hands the whole list out; a completed state keeps only the result. No callback waits for
///   another: callbacks of one future on one serial context run in registration order because they are
///   handed to it in that order; the `completedWithLate` state keeps that true for registrations racing
///   with the completer.
/// - Removable entries can be taken back in O(1) while pending (``remove(_:)``).
///
/// ``Future`` holds this enum under its lock, calls one event, and performs the returned action after
/// unlocking.
@usableFromInline
enum FutureState<T: Sendable, E: Error> {
    case pending(CallbackList<T, E>)
    case completed(Result<T, E>)
    case completedWithLate(LateCallbacks<T, E>)

    @inlinable
    init(result: consuming Result<T, E>?) {
        switch consume result {
        case .some(let result): self = .completed(result)
        case nil: self = .pending(.empty)
        }
    }

    /// The result, or `nil` while pending.
    @inlinable
    var result: Result<T, E>? {
        switch self {
        case .pending: return nil
        case .completed(let result): return result
        case .completedWithLate(let late): return late.result
        }
    }

    /// The entries waiting for completion (empty once completed).
    var pendingEntries: CallbackList<T, E> {
        if case .pending(let list) = self { return list }
        return .empty
    }

    @usableFromInline
    enum CompleteAction {
        /// The future already had a result; nothing changed.
        case alreadyCompleted
        /// Completed; nobody was waiting.
        case completed
        /// Completed; run these (wake-ups first, then hand-outs, then immediate callbacks). `handsOut`: the
        /// list holds entries for other contexts, so the completer hands them out first.
        case run(CallbackList<T, E>, handsOut: Bool)
    }

    @inlinable
    mutating func complete(_ result: Result<T, E>) -> CompleteAction {
        guard case .pending(let list) = self else { return .alreadyCompleted }
        self = .completed(result)
        return list.isEmpty ? .completed : .run(list, handsOut: list.mayHandOut)
    }

    @usableFromInline
    enum RegisterAction {
        /// Stored: runs at completion, or (queued behind a hand-out in progress) right after it.
        case stored
        /// The future is completed: the caller runs the entry, handed back here, (or hands it to its
        /// context) now.
        case runNow(Result<T, E>, Callback<T, E>)
    }

    /// Registers an entry. `handingOut` says whether the completer is still handing callbacks to other
    /// contexts; a callback for another context then queues behind them.
    ///
    /// The entry is moved in: stored, or handed back with ``RegisterAction/runNow(_:_:)``, so the caller
    /// keeps no copy of it (a copy of a closure is a retain now and a release later).
    @inlinable
    mutating func register(_ callback: consuming Callback<T, E>, handingOut: Bool) -> RegisterAction {
        switch self {
        case .pending(var list):
            self = .pending(.empty)  // release our reference so `list` appends in place
            list.append(callback)
            self = .pending(list)
            return .stored
        case .completed(let result):
            guard handingOut, Self.isHandedOut(callback) else { return .runNow(result, callback) }
            self = .completedWithLate(LateCallbacks(result: result, list: .one(callback)))
            return .stored
        case .completedWithLate(let late):
            guard Self.isHandedOut(callback) else { return .runNow(late.result, callback) }
            late.list.append(callback)
            return .stored
        }
    }

    @inlinable
    static func isHandedOut(_ callback: Callback<T, E>) -> Bool {
        switch callback {
        case .scheduled: return true
        case .removable(let entry):
            if case .callback(let context, _)? = entry.kind { return !context.isImmediate }
            return false
        case .inline, .wakeUp, .cancellation, .observer, .tally: return false
        }
    }

    /// The completer has handed its list out: returns what queued meanwhile (to hand out next), or `nil`
    /// when nothing did (the hand-out is over).
    @inlinable
    mutating func takeLate() -> CallbackList<T, E>? {
        guard case .completedWithLate(let late) = self else { return nil }
        self = .completed(late.result)
        return late.list
    }

    @usableFromInline
    enum CancellationRegistration: Equatable {
        case stored
        /// Cancellation was already requested: run the handler now.
        case runNow
        /// Completed: the handler will never be needed.
        case dropped
    }

    mutating func registerCancellationHandler(
        _ handler: @escaping @Sendable () -> Void,
        alreadyRequested: Bool
    ) -> CancellationRegistration {
        guard case .pending(var list) = self else { return .dropped }
        if alreadyRequested { return .runNow }
        self = .pending(.empty)
        list.append(.cancellation(handler))
        self = .pending(list)
        return .stored
    }

    @usableFromInline
    enum RemovableRegistration {
        /// Stored: it runs at completion (a wake-up, a callback) or at the first cancellation request
        /// (a handler), unless removed first.
        case stored
        /// Completed: a wake-up or callback must run with this result now; a handler is never needed.
        case completed(Result<T, E>)
        /// Cancellation was already requested: a handler must run now (a wake-up or callback is stored).
        case cancellationRequested
        /// It was removed before it was registered: nothing is stored; with `leaving`, it leaves now.
        case withdrawn(leaving: Bool)
    }

    /// Registers a removable entry, to be taken back with ``remove(_:)``. The entry becomes
    /// ``RemovableEntry/Phase/live`` (a consumer that has not asked), unless it was withdrawn before it
    /// was registered: then nothing is stored (``RemovableRegistration/withdrawn(leaving:)``).
    mutating func registerRemovable(
        _ entry: RemovableEntry<T, E>,
        alreadyRequested: Bool,
        handingOut: Bool
    ) -> RemovableRegistration {
        switch entry.phase {
        case .withdrawn, .withdrawnLeaving:
            let leaving = entry.phase == .withdrawnLeaving
            entry.phase = .gone
            return .withdrawn(leaving: leaving)
        case .new, .live, .asked, .gone:
            break
        }
        guard case .pending = self else {
            entry.phase = .gone
            if handingOut, case .stored = register(.removable(entry), handingOut: true) { return .stored }
            return .completed(result!)
        }
        if alreadyRequested, entry.isCancellationHandler {
            entry.phase = .gone
            return .cancellationRequested
        }
        entry.phase = .live
        _ = register(.removable(entry), handingOut: false)
        return .stored
    }

    /// What ``remove(_:)`` did.
    @usableFromInline
    enum Removal {
        /// Not stored: it ran or is about to, was removed already, or its future completed.
        case notStored
        /// Not registered yet: marked withdrawn, so registering it stores nothing.
        case withdrawn
        /// Taken out of the pending list; `asked` says whether its ask was counted (and must be taken back).
        case removed(RemovableEntry<T, E>.Kind, asked: Bool)

        /// Whether the entry was taken out of the pending list.
        var isRemoved: Bool {
            if case .removed = self { return true }
            return false
        }
    }

    /// Takes back an entry registered with ``registerRemovable(_:alreadyRequested:handingOut:)`` in O(1):
    /// returns what it held (for the caller to release after unlocking) and whether it had asked.
    mutating func remove(_ entry: RemovableEntry<T, E>, leaving: Bool) -> Removal {
        switch entry.phase {
        case .new:
            // Removed before its registration: the registration then stores nothing (or leaves).
            entry.phase = leaving ? .withdrawnLeaving : .withdrawn
            return .withdrawn
        case .gone, .withdrawn, .withdrawnLeaving:
            return .notStored
        case .live, .asked:
            break
        }
        // Once completed nothing removable is stored: completion handed every entry out.
        guard case .pending = self, let kind = entry.kind else { return .notStored }
        let asked = entry.phase == .asked
        entry.kind = nil
        entry.phase = .gone
        if case .one(.removable(let only)) = pendingEntries, only === entry {
            self = .pending(.empty)
        }
        return .removed(kind, asked: asked)
    }

    /// The consumer tally of a pending future's list, if it has one (see ``ConsumerTally``).
    @usableFromInline
    var consumerTally: ConsumerTally? {
        guard case .pending(let list) = self else { return nil }
        return list.consumerTally
    }

    /// Puts `tally` at the front of a pending future's list.
    mutating func insertTally(_ tally: ConsumerTally) {
        guard case .pending(var list) = self else { return }
        self = .pending(.empty)
        list.insertTally(tally)
        self = .pending(list)
    }

    /// Removes and returns the cancellation handlers of a pending future (none once completed).
    mutating func takeCancellationHandlers() -> [@Sendable () -> Void] {
        guard case .pending(var list) = self else { return [] }
        self = .pending(.empty)
        let handlers = list.removeCancellationHandlers()
        self = .pending(list)
        return handlers
    }

    /// Takes the consumers and observers of a pending future out, keeping its cancellation handlers and
    /// tally (for a future that can never complete).
    mutating func takeConsumers() -> CallbackList<T, E> {
        guard case .pending(var list) = self else { return .empty }
        self = .pending(.empty)
        let taken = list.removeAllButCancellationBookkeeping()
        self = .pending(list)
        return taken
    }

    /// Takes the whole list of a pending future out (for a future being deallocated while pending).
    mutating func takePendingList() -> CallbackList<T, E> {
        guard case .pending(let list) = self else { return .empty }
        self = .pending(.empty)
        return list
    }
}

/// Callbacks for other contexts registered while the completer was still handing out the list, with the
/// result they will get. Mutated only under the owning future's lock; allocated only in that race.
@usableFromInline
final class LateCallbacks<T: Sendable, E: Error> {
    @usableFromInline let result: Result<T, E>
    @usableFromInline var list: CallbackList<T, E>

    @inlinable
    init(result: Result<T, E>, list: CallbackList<T, E>) {
        self.result = result
        self.list = list
    }
}
