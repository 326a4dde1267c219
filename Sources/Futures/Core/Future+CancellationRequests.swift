// Cancellation requests on the cell: the producer's handlers, consumers' asks, and the rule that a source is
// asked only when every consumer asked (GUARANTEES.md G8).

extension Future {
    /// Whether cancellation was requested while the future was pending (stays `true` once set).
    public final var isCancellationRequested: Bool {
        withCellLocked { cancellationRequested }
    }

    /// Asks the producer of this future to stop; the first request while pending runs the handlers
    /// registered with ``onCancellationRequested(_:)`` (on the calling thread, through the trampoline).
    ///
    /// A request never completes the future by itself: the producer decides how to react (usually by
    /// failing it with a cancellation error). On a completed future it does nothing.
    ///
    /// On a future derived from others (by `map`, `flatMap`, `recover`, `zip`, `sequence`, `timeout`, …)
    /// the request travels upstream: each source is asked only when every consumer registered on it while
    /// it was pending has asked, so work shared with another consumer that still waits is never cancelled.
    /// This is an explicit request on *this* future, whoever else waits for it.
    public final func requestCancellation() {
        request(asConsumer: false, through: nil)
    }

    /// One of this future's consumers that cannot be taken back (a plain callback of a derived future, a
    /// combinator that owns its input) no longer needs the result and asks for cancellation. The request
    /// is made once every consumer that registered while the future was pending has asked.
    ///
    /// The ask is counted by number: sound because such a consumer stays registered until the future
    /// completes, and its caller asks at most once for it (the derived future's handlers run once, or a
    /// ``ConsumerAsk`` shares one ask among its paths). A consumer that can be taken back asks through its
    /// registration instead (``consumerAsks(through:)``).
    @usableFromInline
    final func consumerRequestsCancellation() {
        request(asConsumer: true, through: nil)
    }

    /// The consumer registered as `entry` asks for cancellation: its ask is recorded on the entry, so
    /// that removing the entry takes it back (``removeEntry(_:leaving:)``). An ask through an entry that
    /// is not registered (not yet, or no more), or that asked already, does nothing.
    @usableFromInline
    final func consumerAsks(through entry: RemovableEntry<T, E>) {
        request(asConsumer: true, through: entry)
    }

    /// The first request while pending runs the handlers; a consumer's ask counts towards "every consumer
    /// asked" first.
    final func request(asConsumer: Bool, through entry: RemovableEntry<T, E>?) {
        // A tally is allocated outside the lock: when one is needed and none is at hand, unlock, allocate,
        // and look again (this happens once per future at most).
        var spare: ConsumerTally?
        while true {
            let outcome = withCellLocked { () -> RequestOutcome in
                guard !cancellationRequested, !completed else { return .recorded }
                if let entry, entry.phase != .live {
                    // Not a registered consumer that has yet to ask: not registered yet, removed, or asked.
                    return .recorded
                }
                if asConsumer {
                    if tallied, let tally = withState({ $0.consumerTally }) {
                        tally.asks &+= 1
                        entry?.phase = .asked
                        guard tally.asks >= tally.consumers else { return .recorded }
                    } else {
                        let consumers = withState { $0.pendingEntries.liveConsumerCount }
                        if consumers > 1 {
                            // Others still wait: record this ask and count the consumers from now on.
                            guard let tally = spare.take() else { return .needsTally }
                            tally.consumers = consumers
                            tally.asks = 1
                            entry?.phase = .asked
                            withState { $0.insertTally(tally) }
                            tallied = true
                            return .recorded
                        }
                    }
                }
                entry?.phase = .asked
                return .made(fireLocked())
            }
            switch outcome {
            case .recorded:
                return
            case .needsTally:
                spare = ConsumerTally()
            case .made(let handlers):
                Self.runCancellationHandlers(handlers)
                return
            }
        }
    }

    /// What a request did in the cell's region, for ``request(asConsumer:through:)`` to act on after it.
    enum RequestOutcome {
        /// Nothing more to do: the ask was recorded (others still wait), or it did not count.
        case recorded
        /// A tally is needed and none is at hand: allocate one outside the region and look again.
        case needsTally
        /// The request was made: run these handlers.
        case made([@Sendable () -> Void])
    }

    /// Marks this pending future as one that reacts to cancellation requests, before anything reacts: for
    /// a stand-in that forwards requests to a future it does not have yet, so that consumers registered
    /// meanwhile link their requests to it (``depend(on:_:link:asking:_:)`` links only to futures that
    /// accept requests).
    @usableFromInline
    final func acceptCancellationRequests() {
        withCellLocked {
            if !completed { acceptsCancellation = true }
        }
    }

    /// Registers `handler` to run when cancellation of this pending future is requested.
    ///
    /// Runs at once (on the calling thread) if cancellation was already requested; never runs if the
    /// future completes first (the handler is then released). Handlers run through the trampoline, so a
    /// request travelling up a chain of any length is stack-safe.
    public final func onCancellationRequested(_ handler: @escaping @Sendable () -> Void) {
        let action = withCellLocked {
            let action = withState { $0.registerCancellationHandler(handler, alreadyRequested: cancellationRequested) }
            if action != .dropped { acceptsCancellation = true }
            return action
        }
        if case .runNow = action { Self.runCancellationHandlers([handler]) }
    }

    /// Runs cancellation handlers through the trampoline, in registration order.
    @usableFromInline
    static func runCancellationHandlers(_ handlers: [@Sendable () -> Void]) {
        guard !handlers.isEmpty else { return }
        func runHandlers() { for handler in handlers { handler() } }
        if Trampoline.runInline(runHandlers) == nil { Trampoline.run(runHandlers) { $0() } }
    }
}
