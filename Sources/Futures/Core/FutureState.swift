/// The state machine of one future. Pure: no locking, no side effects.
///
/// ```
///             complete(r), no callbacks
///   pending ──────────────────────────────▶ idle(r) ◀──────────────┐
///      │                                       │ register:          │ endTurn,
///      │ complete(r), callbacks waiting        │ takes the turn     │ nothing queued
///      ▼                                       ▼                    │
///   running(r) ◀───────────────────────── running(r) ───────────────┘
///      │  ▲ endTurn: hands out the queue       │
///      │  └──────────────┐                     │ register while running
///      ▼                 │                     ▼
///   runningWithQueue(r, queued) ◀── register ──┘
/// ```
///
/// - `pending` holds the waiting callbacks (and cancellation handlers, and wake-ups of waiters).
/// - A result is set at most once: `complete` on any completed state is refused (`.alreadyCompleted`).
/// - Callbacks take turns. While one runs (`running`), newly registered callbacks are queued behind it
///   (`runningWithQueue`, which boxes its queue: it is the rare case, and keeping it out of line keeps
///   every future small). Ending a turn hands out the queue or returns to `idle`.
/// - Completing hands the whole list out; a completed state keeps only the result.
/// - Removable entries (boxed wake-ups and cancellation handlers) behave like their plain
///   counterparts; while pending, ``remove(_:)`` takes one back, so an abandoned waiter or a disposed
///   token registration leaves nothing behind.
///
/// ``Future`` holds this enum under its lock, calls one event, and performs the returned action after
/// unlocking.
@usableFromInline
enum FutureState<T: Sendable, E: Error> {
    case pending(CallbackList<T, E>)
    case idle(Result<T, E>)
    case running(Result<T, E>)
    case runningWithQueue(QueuedCallbacks<T, E>)

    @inlinable
    init(result: Result<T, E>?) {
        if let result {
            self = .idle(result)
        } else {
            self = .pending(.empty)
        }
    }

    /// The result, or `nil` while pending.
    @inlinable
    var result: Result<T, E>? {
        switch self {
        case .pending: return nil
        case .idle(let result), .running(let result): return result
        case .runningWithQueue(let queued): return queued.result
        }
    }

    /// Whether a callback's turn is in progress.
    var isRunningCallbacks: Bool {
        switch self {
        case .pending, .idle: return false
        case .running, .runningWithQueue: return true
        }
    }

    /// The callbacks waiting: for completion while pending, for their turn while running.
    var waitingCallbacks: CallbackList<T, E> {
        switch self {
        case .pending(let list): return list
        case .idle, .running: return .empty
        case .runningWithQueue(let queued): return queued.list
        }
    }

    @usableFromInline
    enum CompleteAction {
        /// The future already had a result; nothing changed.
        case alreadyCompleted
        /// Completed; nobody was waiting.
        case completed
        /// Completed; run these (wake-ups first, then callbacks in turn). The turn is now taken.
        case run(CallbackList<T, E>)
    }

    @inlinable
    mutating func complete(_ result: Result<T, E>) -> CompleteAction {
        guard case .pending(let list) = self else { return .alreadyCompleted }
        if list.isEmpty {
            self = .idle(result)
            return .completed
        }
        self = .running(result)
        return .run(list)
    }

    @usableFromInline
    enum RegisterAction {
        /// Stored: runs at completion, or in its turn.
        case stored
        /// The future is completed and idle: the caller has taken the turn and runs it now.
        case runNow(Result<T, E>)
    }

    @inlinable
    mutating func register(_ callback: Callback<T, E>) -> RegisterAction {
        switch self {
        case .pending(var list):
            self = .pending(.empty)  // release our reference so `list` appends in place
            list.append(callback)
            self = .pending(list)
            return .stored
        case .idle(let result):
            self = .running(result)
            return .runNow(result)
        case .running(let result):
            self = .runningWithQueue(QueuedCallbacks(result: result, list: .one(callback)))
            return .stored
        case .runningWithQueue(let queued):
            queued.list.append(callback)
            return .stored
        }
    }

    /// Takes the turn if the future is completed and no callback is running.
    @inlinable
    mutating func takeTurnIfCompleted() -> Result<T, E>? {
        guard case .idle(let result) = self else { return nil }
        self = .running(result)
        return result
    }

    /// Ends a turn: returns the callbacks queued meanwhile (the turn stays taken), or gives it up.
    @inlinable
    mutating func endTurn() -> CallbackList<T, E>? {
        switch self {
        case .running(let result):
            self = .idle(result)
            return nil
        case .runningWithQueue(let queued):
            self = .running(queued.result)
            return queued.list
        case .pending, .idle:
            preconditionFailure("Futures: a turn ended that was never taken")
        }
    }

    /// Registers a waiter; returns the result at once if there is one.
    @inlinable
    mutating func registerWakeUp(_ wakeUp: @escaping @Sendable (Result<T, E>) -> Void) -> Result<T, E>? {
        guard case .pending(var list) = self else { return result }
        self = .pending(.empty)
        list.append(.wakeUp(wakeUp))
        self = .pending(list)
        return nil
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
        /// Stored: it runs at completion (a wake-up) or at the first cancellation request (a handler),
        /// unless removed first.
        case stored
        /// Completed: a wake-up must be called with this result now; a handler is never needed.
        case completed(Result<T, E>)
        /// Cancellation was already requested: a handler must run now (a wake-up is stored).
        case cancellationRequested
    }

    /// Registers a wake-up or cancellation handler that can be removed again with ``remove(_:)``.
    mutating func registerRemovable(
        _ entry: RemovableEntry<T, E>,
        alreadyRequested: Bool
    ) -> RemovableRegistration {
        guard case .pending(var list) = self else { return .completed(result!) }
        if alreadyRequested, case .cancellation = entry.kind { return .cancellationRequested }
        self = .pending(.empty)
        list.append(.removable(entry))
        self = .pending(list)
        return .stored
    }

    /// Takes back an entry registered with ``registerRemovable(_:alreadyRequested:)``; returns `false`
    /// if it is no longer stored (it already ran or is about to, or the future completed and dropped it).
    mutating func remove(_ entry: RemovableEntry<T, E>) -> Bool {
        // Once completed nothing removable is stored: completion handed every entry out.
        guard case .pending(var list) = self else { return false }
        self = .pending(.empty)
        let found = list.remove(entry)
        self = .pending(list)
        return found
    }

    /// Removes and returns the cancellation handlers of a pending future (none once completed).
    mutating func takeCancellationHandlers() -> [@Sendable () -> Void] {
        guard case .pending(var list) = self else { return [] }
        self = .pending(.empty)
        let handlers = list.removeCancellationHandlers()
        self = .pending(list)
        return handlers
    }
}

/// Callbacks registered while another callback's turn was running, with the result they will get.
///
/// Mutated only under the owning future's lock.
@usableFromInline
final class QueuedCallbacks<T: Sendable, E: Error> {
    @usableFromInline let result: Result<T, E>
    @usableFromInline var list: CallbackList<T, E>

    @inlinable
    init(result: Result<T, E>, list: CallbackList<T, E>) {
        self.result = result
        self.list = list
    }
}
