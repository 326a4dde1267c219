import Synchronization

/// What a stream delivers to one subscriber: results in order, then at most one end.
@usableFromInline
enum StreamEvent<T: Sendable>: Sendable {
    /// One result of the stream (a value or a per-element failure).
    case element(Result<T, any Error>)
    /// The stream ended: finished (`nil`) or failed terminally.
    case end((any Error)?)
}

/// The state machine of a ``FutureStream``, on its own (like ``FutureState`` for a future).
///
/// ```
///   open ──publish──▶ open            (history keeps the last `capacity` results;
///     │                                every subscriber's mailbox gets the result, except an
///     │                                idle immediate subscriber's: it is handed the result
///     │                                directly and marked draining)
///     └──finish────▶ ended            (every mailbox gets `.end`; publish is refused)
///   subscribe (open): the slot owes the replay `replayNext..<replayEnd` (sequence numbers of the
///     history), copied by its drainer under the lock at most `replayBatch` results at a time; a
///     result evicted while still owed is kept in the slot's `evictedReplay`
///   subscribe (ended): not added; the caller delivers a snapshot of the history, then `.end`
///   a mailbox is drained by one drainer at a time (`isDraining`), in order; a direct hand-over
///   counts as that drainer's turn, so what is published meanwhile waits in the mailbox behind it
/// ```
///
/// - Every subscriber sees the results in the order `publish` was called under the stream's lock.
/// - A subscriber's mailbox holds only what it has not been handed yet; a subscriber that received
///   `.end`, or unsubscribed, is removed with its mailbox and handler.
/// - Slots stay in subscription order. Each subscription knows its slot's position
///   (``StreamSubscription/position``), so finding and removing it costs O(1): a removal leaves a
///   tombstone in place, and the tombstones are compacted away (keeping the order) once they
///   are as many as the live slots, so removing costs O(1) amortised and the table holds at most
///   about twice the subscribers.
/// - The history never exceeds `capacity` results.
/// - Nothing of the user's is released, and nothing is copied in proportion to the history, under
///   the lock: events that remove something (`unsubscribe`, a last batch, an eviction) hand it to the
///   caller, which releases it after unlocking.
///
/// ``FutureStream`` holds this struct under its lock, calls one event, and performs the returned action
/// (starting drainers) after unlocking.
///
/// Its hot paths are `@inlinable` so that clients get code specialised for their element type (no
/// generic metadata look-ups per result); a drainer hands its emptied batch buffer back, so a
/// steady stream delivers without allocating.
@usableFromInline
struct StreamState<T: Sendable> {
    @usableFromInline
    typealias Handler = @Sendable (StreamEvent<T>) -> Void

    /// The largest emptied batch buffer a drainer hands back to its mailbox for reuse (in events);
    /// a bigger one is released, so a burst does not pin its memory.
    @inlinable
    static var reusedBufferLimit: Int { 64 }

    /// A handler as an array element: wrapped, so that reading it back in specialised code needs
    /// no reabstraction thunk (an allocation per call for a bare closure element).
    @usableFromInline
    struct HandlerRef {
        @usableFromInline
        let call: Handler

        @inlinable
        init(_ call: @escaping Handler) {
            self.call = call
        }
    }

    @usableFromInline
    struct Slot {
        @usableFromInline
        let subscription: StreamSubscription
        @usableFromInline
        let handler: Handler
        @usableFromInline
        var mailbox: ContiguousArray<StreamEvent<T>>
        @usableFromInline
        var isDraining: Bool
        /// Whether the subscription runs on the immediate context (it may take results directly).
        @usableFromInline
        let isImmediate: Bool
        /// The replay still owed, as sequence numbers of the history: `replayNext..<replayEnd` (empty
        /// once replayed). The drainer copies it from the history in small batches under the lock.
        @usableFromInline
        var replayNext: Int
        @usableFromInline
        var replayEnd: Int
        /// Owed replay results the history evicted before the drainer took them (oldest first; they
        /// come before `replayNext`).
        @usableFromInline
        var evictedReplay: ContiguousArray<StreamEvent<T>>
        /// `false` for the tombstone a removed subscriber leaves: it holds nothing of the user's.
        @usableFromInline
        let isLive: Bool

        @inlinable
        init(
            subscription: StreamSubscription,
            handler: @escaping Handler,
            mailbox: ContiguousArray<StreamEvent<T>>,
            isDraining: Bool
        ) {
            self.subscription = subscription
            self.handler = handler
            self.mailbox = mailbox
            self.isDraining = isDraining
            self.isImmediate = subscription.context.isImmediate
            self.replayNext = 0
            self.replayEnd = 0
            self.evictedReplay = []
            self.isLive = true
        }

        /// A tombstone: a shared placeholder subscription, a handler that captures nothing, no results.
        /// (A slot is not optional: reading a field through an optional copied the whole slot.)
        @usableFromInline
        init() {
            self.subscription = StreamSubscription.tombstone
            self.handler = { _ in }
            self.mailbox = []
            self.isDraining = false
            self.isImmediate = false
            self.replayNext = 0
            self.replayEnd = 0
            self.evictedReplay = []
            self.isLive = false
        }
    }

    /// Drainers to start after unlocking.
    @usableFromInline
    enum StartAction {
        case none
        case one(StreamSubscription)
        /// Beyond 64 slots: the subscriptions (a shared snapshot; `nil` at a tombstone) whose
        /// `needsStart` flag was set under the lock; the caller starts those it can claim (no array is
        /// built under the lock).
        case flagged(ContiguousArray<StreamSubscription?>)
        /// The subscriptions whose bit is set in the mask (bit `i`: `subscribers[i]`).
        case masked(ContiguousArray<StreamSubscription?>, UInt64)
        /// Bit `i` of `direct`: `subscribers[i]` takes the result directly with `handlers[i]`; bit
        /// `i` of `queued`: its drainer starts.
        case fanOut(
            ContiguousArray<StreamSubscription?>, ContiguousArray<HandlerRef>, direct: UInt64, queued: UInt64)
        /// The only subscriber, idle and on the immediate context, takes the published result
        /// straight from the publisher (it is not in its mailbox); it is marked draining, so results
        /// published meanwhile queue up behind it.
        case direct(StreamSubscription, Handler)

    }

    @usableFromInline
    let capacity: Int
    /// The last `capacity` results, oldest first from `historyStart`.
    @usableFromInline
    var history: ContiguousArray<Result<T, any Error>> = []
    @usableFromInline
    var historyStart = 0
    /// The subscribers, in subscription order, with the tombstones (``Slot/isLive`` `false`) of removed
    /// ones (see ``compact()``).
    @usableFromInline
    var slots: ContiguousArray<Slot> = []
    /// The subscriptions of `slots`, in the same order (`nil` at the same tombstones): a copy-on-write
    /// snapshot handed to ``StartAction/masked(_:_:)``, so it reallocates only when subscribers
    /// change while a snapshot is in use.
    @usableFromInline
    var subscribers: ContiguousArray<StreamSubscription?> = []
    /// The handlers of `slots`, in the same order (a snapshot, like `subscribers`; a tombstone's
    /// captures nothing).
    @usableFromInline
    var handlers: ContiguousArray<HandlerRef> = []
    /// How many of `slots` hold a subscriber (the rest are tombstones).
    @usableFromInline
    var live = 0
    /// Slots visited, looked up or moved so far: the work the cost tests compare at n and 10n (a
    /// wrapping count, never read on the hot path).
    @usableFromInline
    var steps = 0
    /// `nil` while open; `.some(nil)` finished; `.some(error)` failed terminally.
    @usableFromInline
    var termination: (any Error)?? = nil
    /// How many results were ever kept: the sequence number of the next one. The history holds
    /// `kept - history.count ..< kept`.
    @usableFromInline
    var kept = 0
    /// How many slots still owe a replay from the history (0 on the hot path).
    @usableFromInline
    var replaying = 0
    /// The producer's reaction when its last subscriber leaves before the end (see
    /// `FutureStream.whenAbandoned(_:)`); `nil` for most streams.
    @usableFromInline
    var onAbandoned: (@Sendable () -> Void)? = nil

    /// The most history results a drainer copies under the lock at once.
    @inlinable
    static var replayBatch: Int { 64 }

    /// - Precondition: `capacity >= 0` (checked by ``FutureStream`` and ``StreamPromise``).
    @usableFromInline
    init(capacity: Int) {
        precondition(capacity >= 0, "FutureStream: capacity must not be negative (got \(capacity))")
        self.capacity = capacity
    }

    @inlinable
    var isEnded: Bool { termination != nil }

    /// The retained results, oldest first (a copy: for tests and for an ended stream only).
    var replay: ContiguousArray<Result<T, any Error>> {
        if historyStart == 0 { return history }
        var ordered = ContiguousArray<Result<T, any Error>>()
        ordered.reserveCapacity(history.count)
        ordered.append(contentsOf: history[historyStart...])
        ordered.append(contentsOf: history[..<historyStart])
        return ordered
    }

    /// The history result with sequence number `sequence` (which must still be in the history).
    @inlinable
    func historyResult(_ sequence: Int) -> Result<T, any Error> {
        let position = historyStart + (sequence - (kept - history.count))
        return history[position >= history.count ? position - history.count : position]
    }

    /// Adds a result; returns the drainers to start (or the subscriber to hand it to directly), or
    /// `nil` if the stream has ended (refused). A result the full history drops is moved into
    /// `evicted`, for the caller to release after unlocking.
    @inlinable
    mutating func publish(
        _ result: Result<T, any Error>,
        evicted: inout Result<T, any Error>?
    ) -> StartAction? {
        guard termination == nil else { return nil }
        if capacity > 0 {
            if history.count < capacity {
                history.append(result)
            } else {
                if replaying > 0 { keepOwedReplay(of: kept - history.count) }
                evicted = history[historyStart]
                history[historyStart] = result
                historyStart += 1
                if historyStart == capacity { historyStart = 0 }
            }
            kept += 1
        }
        if live == 1 && slots.count == 1 && !slots[0].isDraining && slots[0].isImmediate {
            slots[0].isDraining = true
            steps &+= 1
            return .direct(slots[0].subscription, slots[0].handler)
        }
        return post(.element(result), handingOver: true)
    }

    /// The history is about to drop the result with sequence number `sequence`: a slot that still owes
    /// it keeps a copy (it comes before the rest of its replay).
    @usableFromInline
    mutating func keepOwedReplay(of sequence: Int) {
        steps &+= slots.count
        // A tombstone owes nothing (its range is empty).
        for index in slots.indices where slots[index].replayNext == sequence && sequence < slots[index].replayEnd {
            slots[index].evictedReplay.append(.element(historyResult(sequence)))
            slots[index].replayNext += 1
            if slots[index].replayNext == slots[index].replayEnd { replaying -= 1 }
        }
    }

    /// Ends the stream; returns the drainers to start, or `nil` if it had already ended.
    @usableFromInline
    mutating func finish(_ error: (any Error)?) -> StartAction? {
        guard termination == nil else { return nil }
        termination = .some(error)
        return post(.end(error), handingOver: false)
    }

    /// Appends `event` to every mailbox and marks the idle subscribers draining; returns them.
    ///
    /// Up to 64 subscribers, the drainers to start are a bit mask over ``subscribers`` (shared, not
    /// copied: no allocation per result); beyond that, an array of them. With `handingOver`, idle
    /// subscribers on the immediate context skip the mailbox: they are returned in a second mask
    /// over ``subscribers`` and ``handlers``, to take the event directly (as with
    /// ``StartAction/direct(_:_:)``).
    @inlinable
    mutating func post(_ event: StreamEvent<T>, handingOver: Bool) -> StartAction {
        steps &+= slots.count
        if slots.count <= 64 {
            var mask: UInt64 = 0
            var direct: UInt64 = 0
            for index in slots.indices where slots[index].isLive {
                if slots[index].isDraining {
                    slots[index].mailbox.append(event)
                } else {
                    slots[index].isDraining = true
                    if handingOver && slots[index].isImmediate {
                        direct |= 1 << UInt64(index)
                    } else {
                        slots[index].mailbox.append(event)
                        mask |= 1 << UInt64(index)
                    }
                }
            }
            if direct != 0 { return .fanOut(subscribers, handlers, direct: direct, queued: mask) }
            if mask == 0 { return .none }
            if mask & (mask - 1) == 0 { return .one(slots[mask.trailingZeroBitCount].subscription) }
            return .masked(subscribers, mask)
        }
        var any = false
        for index in slots.indices where slots[index].isLive {
            slots[index].mailbox.append(event)
            if !slots[index].isDraining {
                slots[index].isDraining = true
                slots[index].subscription.flagStart()
                any = true
            }
        }
        return any ? .flagged(subscribers) : .none
    }

    /// What a new subscriber gets first.
    @usableFromInline
    enum Subscribed {
        /// Subscribed; nothing to deliver yet.
        case idle
        /// Subscribed; its drainer must start (it owes the replay, copied in batches under the lock).
        case start
        /// The stream has ended: not subscribed. Deliver `history` (a snapshot that never changes
        /// again: an ended stream takes no more results) from `start`, then the end, outside the lock.
        case ended(history: ContiguousArray<Result<T, any Error>>, start: Int, end: (any Error)?)
    }

    /// Adds a subscriber that owes the replay of the current history, then the live results. O(1):
    /// nothing is copied here.
    @usableFromInline
    mutating func subscribe(_ subscription: StreamSubscription, handler: @escaping Handler) -> Subscribed {
        if let termination { return .ended(history: history, start: historyStart, end: termination) }
        let owesReplay = !history.isEmpty
        var slot = Slot(subscription: subscription, handler: handler, mailbox: [], isDraining: owesReplay)
        if owesReplay {
            slot.replayNext = kept - history.count
            slot.replayEnd = kept
            replaying += 1
        }
        subscription.position.store(slots.count, ordering: .relaxed)
        slots.append(slot)
        subscribers.append(subscription)
        handlers.append(HandlerRef(handler))
        live += 1
        steps &+= 1
        return owesReplay ? .start : .idle
    }

    /// Hands the drainer of `subscription` its next events (swapped into `batch`, which the drainer
    /// passes in emptied): first the replay it owes, at most ``replayBatch`` results at a time (the
    /// drainer reserves that capacity before locking, so nothing is allocated here), then everything in
    /// its mailbox. Ends its turn if there is nothing (returns `nil`; an emptied `batch` of modest
    /// capacity then becomes the mailbox again, so the next result needs no allocation). A batch that
    /// ends with `.end` removes the subscriber: its slot is moved into `removed`, for the caller to
    /// release after unlocking.
    @inlinable
    mutating func nextBatch(
        for subscription: StreamSubscription,
        into batch: inout ContiguousArray<StreamEvent<T>>,
        removed: inout Removed?,
        needsRoom: inout Bool
    ) -> Handler? {
        guard let index = slotIndex(of: subscription) else { return nil }
        if !slots[index].evictedReplay.isEmpty {
            swap(&batch, &slots[index].evictedReplay)
            return slots[index].handler
        }
        if slots[index].replayNext < slots[index].replayEnd {
            if batch.capacity < Self.replayBatch {
                needsRoom = true
                return nil
            }
            let end = min(slots[index].replayEnd, slots[index].replayNext + Self.replayBatch)
            for sequence in slots[index].replayNext..<end { batch.append(.element(historyResult(sequence))) }
            slots[index].replayNext = end
            if end == slots[index].replayEnd { replaying -= 1 }
            return slots[index].handler
        }
        if slots[index].mailbox.isEmpty {
            slots[index].isDraining = false
            if batch.capacity > slots[index].mailbox.capacity && batch.capacity <= Self.reusedBufferLimit {
                swap(&batch, &slots[index].mailbox)
            }
            return nil
        }
        swap(&batch, &slots[index].mailbox)
        // Once the stream has ended, every mailbox ends with `.end` (appended by `finish`), so this
        // batch is the subscriber's last.
        if termination != nil {
            let taken = removeSlot(at: index)
            let handler = taken.slot.handler
            removed = taken
            return handler
        }
        return slots[index].handler
    }

    /// Where `subscription`'s slot is (`nil` if it is not subscribed): O(1), read from the
    /// subscription.
    @inlinable
    mutating func slotIndex(of subscription: StreamSubscription) -> Int? {
        steps &+= 1
        let index = subscription.position.load(ordering: .relaxed)
        guard index >= 0 && index < subscribers.count && subscribers[index] === subscription else { return nil }
        return index
    }

    /// Ends the turn of a subscriber that took a result directly, unless results queued meanwhile:
    /// returns whether there are (its drainer must then run, still marked draining).
    @inlinable
    mutating func endDirectTurn(of subscription: StreamSubscription) -> Bool {
        guard let index = slotIndex(of: subscription) else { return false }
        if slots[index].mailbox.isEmpty {
            slots[index].isDraining = false
            return false
        }
        return true
    }

    /// Removes a subscriber, its mailbox and its handler; returns them (for the caller to release after
    /// unlocking), or `nil` if it was not subscribed.
    @usableFromInline
    mutating func unsubscribe(_ subscription: StreamSubscription) -> Removed? {
        guard let index = slotIndex(of: subscription) else { return nil }
        return removeSlot(at: index)
    }

    /// What ``unsubscribe(_:)`` (or a last batch) took out of the state: everything it held of the
    /// subscriber, for the caller to release after unlocking.
    @usableFromInline
    struct Removed {
        @usableFromInline
        let slot: Slot
        @usableFromInline
        let subscription: StreamSubscription
        @usableFromInline
        let handler: HandlerRef
    }

    /// Takes the live slot at `index` out, leaving a tombstone; compacts the table once the
    /// tombstones are as many as the live slots. O(1) amortised; releases nothing.
    @usableFromInline
    mutating func removeSlot(at index: Int) -> Removed {
        // Swapped out (moved, not copied): the tombstone left in place holds nothing of the user's.
        var slot = Slot()
        swap(&slot, &slots[index])
        var handler = HandlerRef({ _ in })
        swap(&handler, &handlers[index])
        let subscription = subscribers[index].take()!
        subscription.position.store(-1, ordering: .relaxed)
        if slot.replayNext < slot.replayEnd { replaying -= 1 }
        live -= 1
        steps &+= 1
        if slots.count - live >= live { compact() }
        return Removed(slot: slot, subscription: subscription, handler: handler)
    }

    /// Moves the live slots down over the tombstones, keeping their order, and tells each moved
    /// subscription its new position. O(slots); run when at least half of the slots are tombstones, so
    /// its cost is covered by the removals that made them. Only tombstones are dropped: nothing is
    /// released.
    @usableFromInline
    mutating func compact() {
        steps &+= subscribers.count
        var kept = 0
        for index in subscribers.indices {
            guard let subscription = subscribers[index] else { continue }
            if kept != index {
                slots.swapAt(kept, index)
                subscribers.swapAt(kept, index)
                handlers.swapAt(kept, index)
                subscription.position.store(kept, ordering: .relaxed)
            }
            kept += 1
        }
        let tombstones = slots.count - kept
        slots.removeLast(tombstones)
        subscribers.removeLast(tombstones)
        handlers.removeLast(tombstones)
    }

    /// Takes out everything the state holds (for a stream's `deinit`, which releases it iteratively).
    @usableFromInline
    mutating func takeAll() -> (ContiguousArray<Slot>, ContiguousArray<Result<T, any Error>>) {
        let taken = (slots, history)
        slots = []
        subscribers = []
        handlers = []
        history = []
        live = 0
        return taken
    }
}
