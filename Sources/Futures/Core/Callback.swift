import Synchronization

/// One entry in a pending future's list.
///
/// The list keeps registration order. At completion, wake-ups run first, then callbacks on other contexts
/// are handed to their contexts in registration order, then callbacks on the immediate context run in
/// registration order. No callback waits for another one to finish.
@usableFromInline
enum Callback<T: Sendable, E: Error>: Sendable {
    /// A callback on the immediate context: runs on the thread that completes the future (or that
    /// registers it, if already completed), through the trampoline.
    case inline(@Sendable (Result<T, E>) -> Void)
    /// A callback on another context: handed to that context at completion.
    case scheduled(ScheduledCallback<T, E>)
    /// Wakes a waiter (`get()`, `forced()`) as soon as the future completes, ahead of the callbacks.
    case wakeUp(@Sendable (Result<T, E>) -> Void)
    /// Runs when cancellation is requested while the future is pending; dropped on completion.
    case cancellation(@Sendable () -> Void)
    /// Library bookkeeping run at completion with the wake-ups (e.g. disposing a token link). Not a
    /// consumer: it never holds back a cancellation request.
    case observer(@Sendable (Result<T, E>) -> Void)
    /// A wake-up, callback or cancellation handler that its owner may take back before it runs (a waiter
    /// whose task was cancelled, a disposed token registration, a cancelled subscription).
    case removable(RemovableEntry<T, E>)
    /// Bookkeeping, never run: the future's consumers and their cancellation asks, kept at the front of the
    /// list once a consumer has asked while others still wait (see ``ConsumerTally``). Not a consumer.
    case tally(ConsumerTally)

    /// Whether this entry is a consumer of the result (everything but a cancellation handler). A source is
    /// asked to cancel only when every consumer registered while it was pending has asked.
    @inlinable
    var isConsumer: Bool {
        switch self {
        case .inline, .scheduled, .wakeUp: return true
        case .cancellation, .observer, .tally: return false
        case .removable(let entry): return entry.isConsumer
        }
    }
}

/// The cancellation bookkeeping of one pending future (GUARANTEES.md G8): how many consumers registered on it
/// while pending (minus those removed), and how many of them asked for cancellation.
///
/// A future keeps no counters of its own: until a consumer asks while others still wait, its consumers are
/// exactly the live consumer entries of its pending list (each registration appends one, each removal
/// tombstones one). The first such ask counts them once and puts a tally at the front of the list, which the
/// future then keeps up to date in O(1) per registration, removal and ask. A future that is never asked, or
/// whose only consumer asks, never allocates one. Read and written only under the owning future's lock.
@usableFromInline
final class ConsumerTally: @unchecked Sendable {
    // `@unchecked Sendable`: both fields are read and written only under the lock of the one future whose
    // list holds this tally.
    @usableFromInline var consumers: UInt32 = 0
    @usableFromInline var asks: UInt32 = 0

    @usableFromInline
    init() {}
}

/// A wake-up, callback or cancellation handler that can be taken back from a pending future's list in
/// O(1): removing it clears ``kind`` (releasing the closure) and leaves a small tombstone that the list
/// sheds the next time it would grow.
///
/// Boxed so that it has an identity (closures have none) and so that ``Callback`` stays two words. Only
/// the faces that need removal pay for the box.
@usableFromInline
final class RemovableEntry<T: Sendable, E: Error>: @unchecked Sendable {
    // `@unchecked Sendable`: `kind` and `phase` are written only under the lock of the one future the
    // entry is registered on (registration, asks, removal), and `kind` is read without it only by the
    // thread that completes or cancels that future after taking the entry out of the list under the same
    // lock; once out of the list, removal no longer writes it (it finds the future completed and returns
    // `nil`). `isConsumer` is immutable. `askedFuture` is written once, by the registering thread before
    // it creates the link that reads it; the link is a cancellation handler on the output, stored and run
    // through the output's lock, which orders that write before every read.
    @usableFromInline
    enum Kind: Sendable {
        /// Behaves as ``Callback/wakeUp(_:)``.
        case wakeUp(@Sendable (Result<T, E>) -> Void)
        /// Behaves as ``Callback/cancellation(_:)``.
        case cancellation(@Sendable () -> Void)
        /// Behaves as a callback on `context`.
        case callback(ExecutionContext, @Sendable (Result<T, E>) -> Void)
    }

    /// Where a removable entry is in its life, as its future's cancellation bookkeeping sees it: a
    /// consumer's ask is recorded on its own entry, so that taking the entry back takes its ask back too,
    /// and an ask through an entry that is no longer registered does nothing (GUARANTEES.md G8).
    @usableFromInline
    enum Phase: UInt8, Sendable {
        /// Made, not registered yet.
        case new
        /// Registered (or run at registration); a consumer that has not asked.
        case live
        /// Registered, and its ask is counted in its future's tally.
        case asked
        /// Ran, was removed, or its future completed: neither an ask nor a removal through it counts.
        case gone
        /// Removed before it was registered: registering it stores nothing.
        case withdrawn
        /// Removed as leaving before it was registered: registering it leaves at once instead.
        case withdrawnLeaving
    }

    /// What runs; `nil` once removed.
    @usableFromInline var kind: Kind?
    @usableFromInline let isConsumer: Bool
    /// Written and read only under the lock of the future the entry is (to be) registered on.
    @usableFromInline var phase: Phase = .new
    /// The future a consumer that asks through this entry asks (``Future/consumerAsks(through:)``): set once
    /// by a registration that links an output's requests to it (a `CancelToken` or `InvalidationToken`
    /// registration), before the link exists; read by the link. Weak: an entry never keeps its future.
    @usableFromInline weak var askedFuture: Future<T, E>?

    /// This consumer asks its future to cancel, through this entry (see ``askedFuture``).
    @usableFromInline
    func askToCancel() {
        askedFuture?.consumerAsks(through: self)
    }

    @usableFromInline
    init(_ kind: Kind) {
        self.kind = kind
        if case .cancellation = kind {
            self.isConsumer = false
        } else {
            self.isConsumer = true
        }
    }

    @usableFromInline
    var isCancellationHandler: Bool { !isConsumer }
}

/// A callback bound to a non-immediate context. Boxed so that ``Callback`` stays two words; the box also
/// guards against a context that runs its task twice (the second run is reported, not performed).
@usableFromInline
final class ScheduledCallback<T: Sendable, E: Error>: Sendable {
    @usableFromInline let context: ExecutionContext
    @usableFromInline let body: @Sendable (Result<T, E>) -> Void
    @usableFromInline let hasRun = Atomic<Bool>(false)

    @inlinable
    init(context: ExecutionContext, body: @escaping @Sendable (Result<T, E>) -> Void) {
        self.context = context
        self.body = body
    }

    /// Hands the callback to its context with `result`.
    ///
    /// The task enters the trampoline when it runs, so a context that runs tasks synchronously (a custom
    /// function, an invalidation token's context over the immediate one) is as stack-safe as the
    /// immediate context.
    @inlinable
    func submit(_ result: Result<T, E>) {
        // Unbound: the callback carries the context of its registration, not of the completer.
        context.executeUnbound { [self] in
            func job() { self.runOnce(result) }
            if Trampoline.runInline(job) == nil { Trampoline.run(job) { $0() } }
        }
    }

    @inlinable
    func runOnce(_ result: Result<T, E>) {
        if hasRun.exchange(true, ordering: .acquiringAndReleasing) {
            FuturesDiagnostics.report(.contextRanTaskTwice)
            return
        }
        #if ServiceContext
            // A callback registered without a trace context runs without the one this thread has; a bound
            // one sets its own (see `ContextTravel`).
            if ContextTravel.isActive { return ContextTravel.withoutInherited { body(result) } }
        #endif
        body(result)
    }
}

/// A list of entries that stores zero or one without allocating.
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

    /// Entries still live: removed ones (tombstones waiting to be shed) and the tally are not counted.
    var liveCount: Int {
        var live = 0
        forEach { entry in
            if case .removable(let removable) = entry, removable.kind == nil { return }
            if case .tally = entry { return }
            live += 1
        }
        return live
    }

    /// The live consumers: callbacks, wake-ups and removable consumers not taken back. Under the lock.
    var liveConsumerCount: UInt32 {
        var consumers: UInt32 = 0
        forEach { entry in
            switch entry {
            case .inline, .scheduled, .wakeUp: consumers &+= 1
            case .removable(let removable): if removable.isConsumer, removable.kind != nil { consumers &+= 1 }
            case .cancellation, .observer, .tally: break
            }
        }
        return consumers
    }

    /// The tally at the front of the list, if it has one.
    @usableFromInline
    var consumerTally: ConsumerTally? {
        switch self {
        case .empty: return nil
        case .one(let first):
            if case .tally(let tally) = first { return tally }
            return nil
        case .many(let array):
            if case .tally(let tally) = array[0] { return tally }
            return nil
        }
    }

    /// Puts `tally` at the front of the list (once per future: O(n) once, after n O(1) registrations).
    mutating func insertTally(_ tally: ConsumerTally) {
        switch self {
        case .empty:
            self = .one(.tally(tally))
        case .one(let first):
            self = .many([.tally(tally), first])
        case .many(var array):
            self = .empty
            array.insert(.tally(tally), at: 0)
            self = .many(array)
        }
    }

    /// Whether completing must hand something to another context (so late registrations on other
    /// contexts queue behind it, keeping registration order on each serial context).
    @inlinable
    var mayHandOut: Bool {
        switch self {
        case .empty: return false
        case .one(let callback):
            if case .scheduled = callback { return true }
            if case .removable = callback { return true }
            return false
        case .many: return true
        }
    }

    subscript(index: Int) -> Callback<T, E> {
        switch self {
        case .empty: preconditionFailure("index out of range")
        case .one(let callback): return callback
        case .many(let array): return array[index]
        }
    }

    @inlinable
    func forEach(_ body: (Callback<T, E>) -> Void) {
        switch self {
        case .empty: return
        case .one(let callback): body(callback)
        case .many(let array):
            for callback in array { body(callback) }
        }
    }

    @inlinable
    mutating func append(_ callback: consuming Callback<T, E>) {
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
            if array.count == array.capacity {
                Self.shedRemoved(&array)
            }
            array.append(callback)
            self = .many(array)
        }
    }

    /// Drops the tombstones of removed entries before the array would grow. If that frees less than half,
    /// the capacity doubles, so the next shedding is at least n/2 appends away: O(1) amortised.
    @usableFromInline
    static func shedRemoved(_ array: inout ContiguousArray<Callback<T, E>>) {
        let before = array.count
        array.removeAll { callback in
            if case .removable(let entry) = callback { return entry.kind == nil }
            return false
        }
        if array.count * 2 > before {
            array.reserveCapacity(before * 2)
        }
    }

    /// Removes and returns every entry but the cancellation handlers and the tally, which stay in order:
    /// for a future that can never complete, whose consumers can never run but whose producer may still
    /// be asked to stop.
    mutating func removeAllButCancellationBookkeeping() -> CallbackList<T, E> {
        var taken = CallbackList.empty
        var kept = CallbackList.empty
        forEach { entry in
            switch entry {
            case .cancellation, .tally: kept.append(entry)
            case .removable(let removable) where removable.isCancellationHandler: kept.append(entry)
            case .inline, .scheduled, .wakeUp, .observer, .removable: taken.append(entry)
            }
        }
        self = kept
        return taken
    }

    /// Removes and returns the cancellation handlers, keeping every other entry in order.
    mutating func removeCancellationHandlers() -> [@Sendable () -> Void] {
        var handlers: [@Sendable () -> Void] = []
        var kept = CallbackList.empty
        forEach { entry in
            if case .cancellation(let handler) = entry {
                handlers.append(handler)
            } else if case .removable(let removable) = entry, removable.isCancellationHandler {
                if case .cancellation(let handler)? = removable.kind { handlers.append(handler) }
                removable.kind = nil
                removable.phase = .gone
            } else {
                kept.append(entry)
            }
        }
        self = kept
        return handlers
    }
}
