/// The state machine of one future. Pure: no locking, no side effects.
///
/// ```
///            complete(r)                         last turn ends, list empty
///  pending ─────────────▶ completed, running ─────────────────────────────▶ completed, idle
///     │  ▲ register:        │  ▲ register: queued                               │
///     │  └─ queued          │  └─ (runs in its turn)                            │ register:
///     │                     │                                                   ▼ takes the turn
///     └─ requestCancellation: hands out the cancellation handlers (once)   completed, running
/// ```
///
/// Removable entries (wake-ups and cancellation handlers in a box) behave like their plain
/// counterparts; while pending, ``remove(_:)`` takes one back, so an abandoned waiter or a disposed
/// registration leaves nothing behind.
///
/// - A result is set at most once; a second `complete` is refused (`.alreadyCompleted`).
/// - Callbacks take turns: while one runs (`isRunningCallbacks`), new ones are queued behind it.
/// - Completing hands the whole list out; the state keeps only the result.
///
/// ``Future`` holds this struct under its lock, calls one event, and performs the returned action
/// after unlocking.
@usableFromInline
struct FutureState<T: Sendable, E: Error> {
    @usableFromInline var result: Result<T, E>?
    @usableFromInline var callbacks: CallbackList<T, E>
    /// A callback's turn is in progress (only ever true once completed).
    @usableFromInline var isRunningCallbacks: Bool
    /// Cancellation was requested while pending.
    @usableFromInline var isCancellationRequested: Bool

    @inlinable
    init(result: Result<T, E>?) {
        self.result = result
        self.callbacks = .empty
        self.isRunningCallbacks = false
        self.isCancellationRequested = false
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
        guard self.result == nil else { return .alreadyCompleted }
        self.result = result
        if callbacks.isEmpty { return .completed }
        let list = callbacks
        callbacks = .empty
        isRunningCallbacks = true
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
        if let result, !isRunningCallbacks {
            isRunningCallbacks = true
            return .runNow(result)
        }
        callbacks.append(callback)
        return .stored
    }

    /// Takes the turn if the future is completed and no callback is running.
    @inlinable
    mutating func takeTurnIfCompleted() -> Result<T, E>? {
        guard let result, !isRunningCallbacks else { return nil }
        isRunningCallbacks = true
        return result
    }

    /// Ends a turn: returns the callbacks queued meanwhile (the turn stays taken), or gives it up.
    @inlinable
    mutating func endTurn() -> CallbackList<T, E>? {
        if callbacks.isEmpty {
            isRunningCallbacks = false
            return nil
        }
        let list = callbacks
        callbacks = .empty
        return list
    }

    /// Registers a waiter; returns the result at once if there is one.
    @inlinable
    mutating func registerWakeUp(_ wakeUp: @escaping @Sendable (Result<T, E>) -> Void) -> Result<T, E>? {
        if let result { return result }
        callbacks.append(.wakeUp(wakeUp))
        return nil
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
    mutating func registerRemovable(_ entry: RemovableEntry<T, E>) -> RemovableRegistration {
        if let result { return .completed(result) }
        if isCancellationRequested, case .cancellation = entry.kind { return .cancellationRequested }
        callbacks.append(.removable(entry))
        return .stored
    }

    /// Takes back an entry registered with ``registerRemovable(_:)``; returns `false` if it is no
    /// longer stored (it already ran or is about to, or the future completed and dropped it).
    mutating func remove(_ entry: RemovableEntry<T, E>) -> Bool {
        // Once completed the list only holds callbacks waiting for their turn: nothing removable.
        guard result == nil else { return false }
        return callbacks.remove(entry)
    }

    @usableFromInline
    enum CancellationRegistration {
        case stored
        /// Cancellation was already requested: run the handler now.
        case runNow
        /// Completed: the handler will never be needed.
        case dropped
    }

    mutating func registerCancellationHandler(_ handler: @escaping @Sendable () -> Void) -> CancellationRegistration {
        if result != nil { return .dropped }
        if isCancellationRequested { return .runNow }
        callbacks.append(.cancellation(handler))
        return .stored
    }

    /// Marks cancellation requested; returns the handlers to run (only the first request while pending
    /// gets any).
    mutating func requestCancellation() -> [@Sendable () -> Void] {
        guard result == nil, !isCancellationRequested else { return [] }
        isCancellationRequested = true
        return callbacks.removeCancellationHandlers()
    }
}
