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
///   subscribe: mailbox = replay of history (+ `.end` if ended)
///   a mailbox is drained by one drainer at a time (`isDraining`), in order; a direct hand-over
///   counts as that drainer's turn, so what is published meanwhile waits in the mailbox behind it
/// ```
///
/// - Every subscriber sees the results in the order `publish` was called under the stream's lock.
/// - A subscriber's mailbox holds only what it has not been handed yet; a subscriber that received
///   `.end`, or unsubscribed, is removed with its mailbox and handler.
/// - The history never exceeds `capacity` results.
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
        }
    }

    /// Drainers to start after unlocking.
    @usableFromInline
    enum StartAction {
        case none
        case one(StreamSubscription)
        case many(ContiguousArray<StreamSubscription>)
        /// The subscriptions whose bit is set in the mask (bit `i`: `subscribers[i]`).
        case masked(ContiguousArray<StreamSubscription>, UInt64)
        /// Bit `i` of `direct`: `subscribers[i]` takes the result directly with `handlers[i]`; bit
        /// `i` of `queued`: its drainer starts.
        case fanOut(
            ContiguousArray<StreamSubscription>, ContiguousArray<HandlerRef>, direct: UInt64, queued: UInt64)
        /// The only subscriber, idle and on the immediate context, takes the published result
        /// straight from the publisher (it is not in its mailbox); it is marked draining, so results
        /// published meanwhile queue up behind it.
        case direct(StreamSubscription, Handler)

        @inlinable
        mutating func append(_ subscription: StreamSubscription) {
            switch self {
            case .none: self = .one(subscription)
            case .one(let first): self = .many([first, subscription])
            case .direct, .masked, .fanOut: preconditionFailure("FutureStream: only `post` builds this action")
            case .many(var all):
                self = .none
                all.append(subscription)
                self = .many(all)
            }
        }
    }

    @usableFromInline
    let capacity: Int
    /// The last `capacity` results, oldest first from `historyStart`.
    @usableFromInline
    var history: ContiguousArray<Result<T, any Error>> = []
    @usableFromInline
    var historyStart = 0
    @usableFromInline
    var slots: ContiguousArray<Slot> = []
    /// The subscriptions of `slots`, in the same order: a copy-on-write snapshot handed to
    /// ``StartAction/masked(_:_:)``, so it reallocates only when subscribers change while a
    /// snapshot is in use.
    @usableFromInline
    var subscribers: ContiguousArray<StreamSubscription> = []
    /// The handlers of `slots`, in the same order (a snapshot, like `subscribers`).
    @usableFromInline
    var handlers: ContiguousArray<HandlerRef> = []
    /// `nil` while open; `.some(nil)` finished; `.some(error)` failed terminally.
    @usableFromInline
    var termination: (any Error)?? = nil

    @usableFromInline
    init(capacity: Int) {
        precondition(capacity >= 0, "FutureStream capacity must not be negative")
        self.capacity = capacity
    }

    @inlinable
    var isEnded: Bool { termination != nil }

    /// The retained results, oldest first.
    var replay: ContiguousArray<Result<T, any Error>> {
        if historyStart == 0 { return history }
        var ordered = ContiguousArray<Result<T, any Error>>()
        ordered.reserveCapacity(history.count)
        ordered.append(contentsOf: history[historyStart...])
        ordered.append(contentsOf: history[..<historyStart])
        return ordered
    }

    /// Adds a result; returns the drainers to start (or the subscriber to hand it to directly), or
    /// `nil` if the stream has ended (refused).
    @inlinable
    mutating func publish(_ result: Result<T, any Error>) -> StartAction? {
        guard termination == nil else { return nil }
        if capacity > 0 {
            if history.count < capacity {
                history.append(result)
            } else {
                history[historyStart] = result
                historyStart += 1
                if historyStart == capacity { historyStart = 0 }
            }
        }
        if slots.count == 1 && !slots[0].isDraining && slots[0].isImmediate {
            slots[0].isDraining = true
            return .direct(slots[0].subscription, slots[0].handler)
        }
        return post(.element(result), handingOver: true)
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
        if slots.count <= 64 {
            var mask: UInt64 = 0
            var direct: UInt64 = 0
            for index in slots.indices {
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
        var start = StartAction.none
        for index in slots.indices {
            slots[index].mailbox.append(event)
            if !slots[index].isDraining {
                slots[index].isDraining = true
                start.append(slots[index].subscription)
            }
        }
        return start
    }

    /// Adds a subscriber whose mailbox starts with the replay (and the end, if ended). Returns whether
    /// its drainer must be started.
    @usableFromInline
    mutating func subscribe(_ subscription: StreamSubscription, handler: @escaping Handler) -> Bool {
        var mailbox = ContiguousArray<StreamEvent<T>>()
        mailbox.reserveCapacity(history.count + 1)
        for result in replay { mailbox.append(.element(result)) }
        if let termination { mailbox.append(.end(termination)) }
        let start = !mailbox.isEmpty
        slots.append(Slot(subscription: subscription, handler: handler, mailbox: mailbox, isDraining: start))
        subscribers.append(subscription)
        handlers.append(HandlerRef(handler))
        return start
    }

    /// Hands the drainer of `subscription` everything in its mailbox (swapped into `batch`, which the
    /// drainer passes in emptied), or ends its turn if there is nothing (returns `nil`; an emptied
    /// `batch` of modest capacity then becomes the mailbox again, so the next result needs no
    /// allocation). A batch that ends with `.end` removes the subscriber.
    @inlinable
    mutating func nextBatch(
        for subscription: StreamSubscription,
        into batch: inout ContiguousArray<StreamEvent<T>>
    ) -> Handler? {
        guard let index = slotIndex(of: subscription) else { return nil }
        if slots[index].mailbox.isEmpty {
            slots[index].isDraining = false
            if batch.capacity > slots[index].mailbox.capacity && batch.capacity <= Self.reusedBufferLimit {
                swap(&batch, &slots[index].mailbox)
            }
            return nil
        }
        swap(&batch, &slots[index].mailbox)
        // Once the stream has ended, every mailbox ends with `.end` (appended by `finish`, or by
        // `subscribe` on an ended stream), so this batch is the subscriber's last.
        if termination != nil {
            subscribers.remove(at: index)
            handlers.remove(at: index)
            return slots.remove(at: index).handler
        }
        return slots[index].handler
    }

    /// Where `subscription`'s slot is (`nil` if it is not subscribed).
    @inlinable
    func slotIndex(of subscription: StreamSubscription) -> Int? {
        slots.firstIndex(where: { $0.subscription === subscription })
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

    /// Removes a subscriber, its mailbox and its handler; returns whether it was subscribed.
    @usableFromInline
    mutating func unsubscribe(_ subscription: StreamSubscription) -> Bool {
        guard let index = slotIndex(of: subscription) else { return false }
        slots.remove(at: index)
        subscribers.remove(at: index)
        handlers.remove(at: index)
        return true
    }
}
