/// One entry in a future's list of waiting work.
///
/// The list is kept in registration order. User callbacks (`inline`, `scheduled`) take turns: the
/// next one starts only after the previous one has returned, even when they run on different
/// contexts. Wake-ups and cancellation handlers are not callbacks and do not take turns.
@usableFromInline
enum Callback<T: Sendable, E: Error>: Sendable {
    /// A callback on the immediate context: runs on the thread that completes the future (or that
    /// registers it, if already completed), in its turn.
    case inline(@Sendable (Result<T, E>) -> Void)
    /// A callback on another context; the turn passes on only after it has run there.
    case scheduled(ScheduledCallback<T, E>)
    /// Wakes a waiter (`get()`, `forced()`) as soon as the future completes, ahead of the callbacks.
    case wakeUp(@Sendable (Result<T, E>) -> Void)
    /// Runs when cancellation is requested while the future is pending; dropped on completion.
    case cancellation(@Sendable () -> Void)
    /// A wake-up or cancellation handler that its owner may take back before it runs (a waiter whose
    /// task was cancelled, a disposed token registration): see ``FutureState/remove(_:)``.
    case removable(RemovableEntry<T, E>)
}

/// A wake-up or a cancellation handler that can be removed from a pending future's list again.
///
/// Boxed so that it has an identity to remove it by (closures have none), and so that ``Callback``
/// stays two words. Only the cancellation-aware faces (`get(onTaskCancellation:)`, token
/// registrations) pay for the box; plain wake-ups and handlers stay unboxed.
@usableFromInline
final class RemovableEntry<T: Sendable, E: Error>: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        /// Behaves as ``Callback/wakeUp(_:)``.
        case wakeUp(@Sendable (Result<T, E>) -> Void)
        /// Behaves as ``Callback/cancellation(_:)``.
        case cancellation(@Sendable () -> Void)
    }

    @usableFromInline let kind: Kind

    @usableFromInline
    init(_ kind: Kind) {
        self.kind = kind
    }
}

/// A callback bound to a non-immediate context. Boxed so that ``Callback`` stays two words.
@usableFromInline
final class ScheduledCallback<T: Sendable, E: Error>: Sendable {
    @usableFromInline let context: ExecutionContext
    @usableFromInline let body: @Sendable (Result<T, E>) -> Void

    @inlinable
    init(context: ExecutionContext, body: @escaping @Sendable (Result<T, E>) -> Void) {
        self.context = context
        self.body = body
    }
}

/// A list of callbacks that stores zero or one entries without allocating.
@usableFromInline
enum CallbackList<T: Sendable, E: Error>: Sendable {
    case empty
    case one(Callback<T, E>)
    case many(ContiguousArray<Callback<T, E>>)

    @inlinable
    var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }

    @inlinable
    var count: Int {
        switch self {
        case .empty: return 0
        case .one: return 1
        case .many(let array): return array.count
        }
    }

    @inlinable
    subscript(index: Int) -> Callback<T, E> {
        switch self {
        case .empty: preconditionFailure("index out of range")
        case .one(let callback): return callback
        case .many(let array): return array[index]
        }
    }

    @inlinable
    mutating func append(_ callback: Callback<T, E>) {
        switch self {
        case .empty:
            self = .one(callback)
        case .one(let first):
            var array = ContiguousArray<Callback<T, E>>()
            array.reserveCapacity(4)
            array.append(first)
            array.append(callback)
            self = .many(array)
        case .many(var array):
            self = .empty  // drop our reference so `array` is unique and appends in place
            array.append(callback)
            self = .many(array)
        }
    }

    /// Removes and returns the cancellation handlers, keeping every other entry in order.
    mutating func removeCancellationHandlers() -> [@Sendable () -> Void] {
        var handlers: [@Sendable () -> Void] = []
        var kept = CallbackList.empty
        for index in 0..<count {
            let entry = self[index]
            if case .cancellation(let handler) = entry {
                handlers.append(handler)
            } else if case .removable(let removable) = entry, case .cancellation(let handler) = removable.kind {
                handlers.append(handler)
            } else {
                kept.append(entry)
            }
        }
        self = kept
        return handlers
    }

    /// Removes `entry` (compared by identity), keeping every other entry in order; returns whether
    /// it was there.
    mutating func remove(_ entry: RemovableEntry<T, E>) -> Bool {
        var kept = CallbackList.empty
        var found = false
        for index in 0..<count {
            if !found, case .removable(let candidate) = self[index], candidate === entry {
                found = true
            } else {
                kept.append(self[index])
            }
        }
        if found { self = kept }
        return found
    }
}
