/// A read-only stream of results, consumed as an `AsyncSequence`.
///
/// Where a ``Future`` completes once, a stream receives a result (a value or an error) every time its
/// producer has one — think of a location manager calling its delegate again and again. The write end
/// is a ``StreamPromise``.
///
/// ```swift
/// let promise = StreamPromise<Int>(capacity: 10)
/// Task { for try await value in promise.stream { print(value) } }
/// promise.success(1)
/// promise.success(2)
/// ```
///
/// ## Replay, then live results, in order
/// A stream keeps its last `capacity` results. Every new subscriber (a `for await` loop; in the
/// `SimpleFutures` module also a callback or a combinator) first receives those, oldest first, then every
/// later result, exactly once, in the order the producers published them. Each subscriber has its own
/// ordered delivery: a slow subscriber never delays or reorders another.
///
/// ## Ending
/// ``StreamPromise/finish()`` ends a stream (and
/// ``StreamPromise/finish(throwing:)`` fails it terminally): later results are refused, `for await`
/// loops end after the last result, and derived streams end too. A stream whose last
/// ``StreamPromise`` is deallocated finishes.
///
/// ## Memory
/// The stream retains at most `capacity` results, however many pass through. A subscriber's
/// delivery queue holds only the results handed to it that its context has not run yet. A
/// subscriber that leaves (a `for await` loop left with `break`, a cancelled task, a callback switched
/// off by its token) is removed and released at once: it gets no `.end`, and nothing of it stays behind.
/// Dropping a long chain of derived streams releases them iteratively (bounded stack).
///
/// ## Costs
/// Subscribing and removing a subscriber (however it leaves) cost O(1) amortised, whatever the number of
/// subscribers; a result is handed to n subscribers in O(n).
public final class FutureStream<T: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable` is sound because the only mutable state, `state`, is read and written only
    // inside `lock.withLock` (and by `deinit`, which no other thread can overlap); handlers are
    // `@Sendable` and run outside the lock.
    @usableFromInline
    let lock = ParkingLock()
    @usableFromInline
    @exclusivity(unchecked)
    var state: StreamState<T>

    /// How many results the stream keeps for replay (`Int.max`, the default, keeps them all).
    public let capacity: Int

    /// Creates an open stream that keeps up to `capacity` results; only this library writes into it
    /// (through a ``StreamPromise``, a combinator or an adapter).
    ///
    /// - Precondition: `capacity >= 0`; a negative capacity stops the program with the message
    ///   "FutureStream: capacity must not be negative".
    @usableFromInline
    package init(openWithCapacity capacity: Int) {
        precondition(capacity >= 0, "FutureStream: capacity must not be negative (got \(capacity))")
        self.capacity = capacity
        self.state = StreamState(capacity: capacity)
    }

    /// Releases what the stream holds without recursing: the handlers of its subscribers may hold
    /// derived streams, which hold theirs, and so on. The release goes through the per-thread
    /// trampoline, so dropping a chain of any length uses bounded stack.
    deinit {
        if state.slots.isEmpty && state.history.isEmpty { return }
        // Moved straight into the box (no local copy may outlive the trampoline frame).
        let box = ReleaseBox(state.takeAll())
        Trampoline.run(box) { $0.release() }
    }

    /// Creates an empty stream, already finished.
    ///
    /// A stream created with the public initializers has no writer, so nothing could ever be added to
    /// it: it is finished at once, and subscribers get its results (if any), then the end. To write a
    /// stream, create a ``StreamPromise``.
    ///
    /// - Precondition: `capacity >= 0` (a negative capacity stops the program with a message).
    public convenience init(capacity: Int = Int.max) {
        self.init(openWithCapacity: capacity)
        finish(nil)
    }

    /// Creates a stream holding one successful result, `value`, already finished.
    ///
    /// The stream always holds `value`: a `capacity` below 1 is raised to 1 (so ``capacity`` is at
    /// least 1). Subscribers get `value`, then the end.
    ///
    /// - Precondition: `capacity >= 0` (a negative capacity stops the program with a message).
    @usableFromInline
    package convenience init(value: T, capacity: Int = Int.max) {
        precondition(capacity >= 0, "FutureStream: capacity must not be negative (got \(capacity))")
        self.init(openWithCapacity: Swift.max(1, capacity))
        publish(.success(value))
        finish(nil)
    }

    /// Creates a stream holding one failed result, `error` (a per-element failure), already finished.
    ///
    /// The stream always holds the failure: a `capacity` below 1 is raised to 1.
    ///
    /// - Precondition: `capacity >= 0` (a negative capacity stops the program with a message).
    @usableFromInline
    package convenience init(error: any Error, capacity: Int = Int.max) {
        precondition(capacity >= 0, "FutureStream: capacity must not be negative (got \(capacity))")
        self.init(openWithCapacity: Swift.max(1, capacity))
        publish(.failure(error))
        finish(nil)
    }

    /// How many results the stream currently keeps for replay (at most ``capacity``).
    public var count: Int {
        lock.withLock { state.history.count }
    }

    /// Whether the stream has ended (finished, or failed terminally).
    public var isFinished: Bool {
        lock.withLock { state.isEnded }
    }

    // MARK: - Write end (internal: used by StreamPromise and the combinators)

    /// Adds a result and hands it to every subscriber; returns `false` if the stream has ended.
    @inlinable
    @discardableResult
    package func publish(_ result: Result<T, any Error>) -> Bool {
        var evicted: Result<T, any Error>? = nil
        let action = lock.withLock { state.publish(result, evicted: &evicted) }
        // The result the history dropped is released here, outside the lock.
        evicted = nil
        // Consumed, and every case binds its payload: the action is moved apart, not copied.
        switch consume action {
        case nil:
            return false
        case .some(.direct(let subscription, let handler)):
            startHandOver(result, to: subscription, handler)
        case .some(.one(let subscription)):
            start(subscription)
        case .some(.flagged(let subscriptions)):
            startFlagged(subscriptions)
        case .some(.masked(let subscriptions, let mask)):
            start(subscriptions, mask)
        case .some(.fanOut(let subscriptions, let handlers, let direct, let queued)):
            var remaining = direct | queued
            while remaining != 0 {
                let index = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                if direct & (1 << UInt64(index)) == 0 {
                    start(subscriptions[index]!)
                } else {
                    startHandOver(result, to: subscriptions[index]!, handlers[index].call)
                }
            }
        case .some(.none):
            break
        }
        return true
    }

    /// Ends the stream (`nil`: finished; an error: failed terminally); returns `false` if it had ended.
    @usableFromInline
    @discardableResult
    func finish(_ error: (any Error)?) -> Bool {
        let (action, abandonHandler) = lock.withLock {
            () -> (StreamState<T>.StartAction?, (@Sendable () -> Void)?) in
            let action = state.finish(error)
            return (action, action == nil ? nil : state.onAbandoned.take())
        }
        _ = consume abandonHandler  // released after the lock: the stream ended, nobody can abandon it
        guard let action else { return false }
        start(action)
        return true
    }

    /// Runs `handler` once, through the trampoline, when the stream's last subscriber leaves (a loop
    /// left early, a cancelled consuming task, a cancelled subscription) while the stream has not ended:
    /// for a producer whose work nobody wants any more. Released unrun when the stream ends, and never
    /// stored on a stream that has ended already (it would keep what it captures as long as the stream).
    func whenAbandoned(_ handler: @escaping @Sendable () -> Void) {
        let replaced = lock.withLock { () -> (@Sendable () -> Void)? in
            if state.isEnded { return nil }
            let replaced = state.onAbandoned.take()
            state.onAbandoned = handler
            return replaced
        }
        _ = consume replaced  // a handler set before is released after the lock
    }

    // MARK: - Subscribing (internal: every face of the stream is built on this)

    /// Subscribes `handler` to the replay, then the live results, then the end, on `context`, in order.
    ///
    /// `onCancel` runs if the subscription is cancelled (through `cancelToken`, or by the caller)
    /// before its end was delivered.
    ///
    /// A gated context (an ``InvalidationToken``'s) is unwrapped: the handler runs on the underlying
    /// context and the gate is checked before every event; the subscription is handed to the token,
    /// and invalidating it (or a drainer finding the gate closed) removes and releases the subscription
    /// at once (no `.end` is delivered, `onCancel` does not run).
    @usableFromInline
    @discardableResult
    func subscribe(
        context: ExecutionContext,
        cancelToken: CancelToken = .unused,
        onCancel: (@Sendable () -> Void)? = nil,
        _ handler: @escaping @Sendable (StreamEvent<T>) -> Void
    ) -> StreamSubscription {
        #if ServiceContext
            // Every event reaches the handler with the trace context of the subscription, whoever publishes
            // it (see `ContextTravel`).
            let handler = ContextTravel.boundAlways(handler)
        #endif
        let (base, gate) = context.ungated
        let trackers = context.invalidationTrackers
        let subscription = StreamSubscription(
            context: base,
            gate: gate,
            onCancel: onCancel,
            settled: trackers.isEmpty ? nil : InvalidationToken.forgetting(in: trackers)
        ) { [weak self] subscription in
            self?.detach(subscription) ?? false
        }
        cancelToken.register(subscription, on: self)
        for tracker in trackers where !tracker.track(subscription) {
            subscription.invalidate()
            return subscription
        }
        // A token cancelled between `register` and here finds nothing to detach: skip it instead.
        let subscribed = lock.withLock { () -> StreamState<T>.Subscribed? in
            subscription.isLive ? state.subscribe(subscription, handler: handler) : nil
        }
        switch subscribed {
        case nil, .idle?:
            break
        case .start?:
            start(subscription)
        case .ended(let history, let start, let end)?:
            if base.isImmediate {
                Trampoline.run((self, history, start, end, subscription, handler)) {
                    $0.replayEnded($1, from: $2, end: $3, to: $4, $5)
                }
            } else {
                base.executeOnce { self.replayEnded(history, from: start, end: end, to: subscription, handler) }
            }
        }
        return subscription
    }

    /// Removes `subscription` from the state; its slot (handler, undelivered results) is released
    /// after unlocking. Returns whether it was subscribed.
    func detach(_ subscription: StreamSubscription) -> Bool {
        let (removed, abandoned) = lock.withLock {
            () -> (StreamState<T>.Removed?, (@Sendable () -> Void)?) in
            let removed = state.unsubscribe(subscription)
            return (removed, removed != nil && state.live == 0 && !state.isEnded ? state.onAbandoned.take() : nil)
        }
        if let abandoned { Trampoline.run(abandoned) { $0() } }
        return removed != nil
    }

    /// Delivers an ended stream's history (a snapshot that never changes), then its end, to a
    /// subscriber that came after the end (it was never added to the state).
    func replayEnded(
        _ history: ContiguousArray<Result<T, any Error>>,
        from start: Int,
        end: (any Error)?,
        to subscription: StreamSubscription,
        _ handler: StreamState<T>.Handler
    ) {
        var position = start
        for _ in 0..<history.count {
            if !subscription.mayDeliver() { return }
            handler(.element(history[position]))
            position += 1
            if position == history.count { position = 0 }
        }
        if !subscription.mayDeliver() { return }
        subscription.markEnded()
        handler(.end(end))
    }

    /// Unregisters every callback and combinator registered on this stream with `cancelToken`.
    ///
    /// A cancelled callback never runs afterwards (checked before every result), and it is released
    /// at once. A combinator's subscription that is cancelled first cancels the same token on the
    /// stream it returned, then finishes that stream, so a chain built with one token goes quiet.
    /// Thread-safe; other subscribers are not affected.
    ///
    /// - Returns: `true` if at least one subscription made with `cancelToken` on this stream was
    ///   still active.
    @discardableResult
    @usableFromInline
    package func cancel(_ cancelToken: CancelToken) -> Bool {
        cancelToken.cancelRegistrations(on: self)
    }

    // MARK: - Delivery

    @inlinable
    func start(_ action: StreamState<T>.StartAction) {
        switch action {
        case .none:
            break
        case .one(let subscription):
            start(subscription)
        case .flagged(let subscriptions):
            startFlagged(subscriptions)
        case .masked(let subscriptions, let mask):
            start(subscriptions, mask)
        case .direct, .fanOut:
            preconditionFailure("FutureStream: a direct hand-over carries its result (see publish)")
        }
    }

    /// Starts the drainers of the subscriptions flagged under the lock (beyond 64 slots), in order.
    @inlinable
    func startFlagged(_ subscriptions: ContiguousArray<StreamSubscription?>) {
        for case let subscription? in subscriptions where subscription.claimStart() { start(subscription) }
    }

    /// Starts the drainers of the subscriptions whose bit is set in `mask`, in order.
    @inlinable
    func start(_ subscriptions: ContiguousArray<StreamSubscription?>, _ mask: UInt64) {
        var remaining = mask
        while remaining != 0 {
            start(subscriptions[remaining.trailingZeroBitCount]!)
            remaining &= remaining - 1
        }
    }

    /// Runs ``handOver(_:to:_:)`` on the trampoline (queued there only when the stack is deep).
    @inlinable
    func startHandOver(
        _ result: Result<T, any Error>,
        to subscription: StreamSubscription,
        _ handler: @escaping StreamState<T>.Handler
    ) {
        // Generic code the optimiser may not specialise: a closure formed here would capture the generic
        // context, an allocation per element. The job is one local function, run in place, and made an
        // escaping closure only on the rare queued path.
        func deliver() { handOver(result, to: subscription, handler) }
        if Trampoline.runInline(deliver) == nil { Trampoline.run(deliver) { $0() } }
    }

    /// Delivers `result`, which skipped the mailbox (``StreamState/StartAction/direct(_:_:)``), then
    /// drains what was published meanwhile and ends the turn, as ``drain(_:)`` does.
    @inlinable
    func handOver(
        _ result: Result<T, any Error>,
        to subscription: StreamSubscription,
        _ handler: StreamState<T>.Handler
    ) {
        if !subscription.mayDeliver() { return }
        handler(.element(result))
        let hasMore = lock.withLock { state.endDirectTurn(of: subscription) }
        if hasMore { drain(subscription) }
    }

    @inlinable
    func start(_ subscription: StreamSubscription) {
        if subscription.context.isImmediate {
            // One local function, as in `startHandOver(_:to:_:)`: no closure per element.
            func drain() { self.drain(subscription) }
            if Trampoline.runInline(drain) == nil { Trampoline.run(drain) { $0() } }
        } else {
            subscription.context.executeOnce { self.drain(subscription) }
        }
    }

    /// Hands `subscription`'s mailbox to its handler, batch by batch, until it is empty.
    ///
    /// Only one drainer runs per subscription (`isDraining` in the state), so its events never
    /// overlap and keep their order. On a queue, a drainer yields the queue after a few batches and
    /// continues in a new block, so one busy stream cannot monopolise a thread.
    /// The handed-over batch buffer is emptied outside the lock (releasing the delivered results
    /// there) and handed back to the mailbox when the turn ends, so steady delivery reuses it.
    @inlinable
    func drain(_ subscription: StreamSubscription) {
        var batches = 0
        var batch = ContiguousArray<StreamEvent<T>>()
        var needsRoom = false
        while true {
            if batches == 16 && !subscription.context.isImmediate {
                subscription.context.executeOnce { self.drain(subscription) }
                return
            }
            batches += 1
            // Small batches are the rule: popping them is cheaper than `removeAll(keepingCapacity:)`.
            while batch.popLast() != nil {}
            if needsRoom {
                // A replay is copied from the history under the lock: make room for it before locking.
                needsRoom = false
                batch.reserveCapacity(StreamState<T>.replayBatch)
            }
            var removed: StreamState<T>.Removed? = nil
            let next = lock.withLock {
                state.nextBatch(for: subscription, into: &batch, removed: &removed, needsRoom: &needsRoom)
            }
            // The slot of a subscriber that got its end is released here, outside the lock.
            removed = nil
            guard let handler = next else {
                if needsRoom { continue }
                return
            }
            for event in batch {
                if !subscription.mayDeliver() { return }
                if case .end = event { subscription.markEnded() }
                handler(event)
            }
        }
    }
}

/// What a stream's `deinit` takes out of its state, released on the trampoline (see `deinit`).
final class ReleaseBox<Payload>: @unchecked Sendable {
    // `@unchecked Sendable`: used only on the thread that created it (a trampoline job runs on the
    // thread that queued it).
    private var payload: Payload?

    init(_ payload: Payload) {
        self.payload = payload
    }

    /// Drops the payload now (not when the box, or a queued job holding it, is released).
    func release() {
        payload = nil
    }
}
