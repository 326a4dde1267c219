/// Hears what happens in a ``ConcurrencyLimiter``: each item waiting, starting, finishing, being removed
/// unrun or refused, with how long it waited and ran. For metrics (the `Metrics` trait's `FuturesMetrics`
/// is one), logs or tests.
///
/// Pass it to ``ConcurrencyLimiter/init(maxConcurrent:startingOn:observer:)``; the limiter keeps it for its
/// lifetime.
///
/// ## When it is called
/// ``observe(_:)`` runs synchronously, after the limiter's lock is released, on the thread where the event
/// happened: the submitting thread (``ConcurrencyLimiter/Event/queued``, a start at submission,
/// ``ConcurrencyLimiter/Event/refused``), the thread that completed a work's future
/// (``ConcurrencyLimiter/Event/finished(ranFor:)`` and the start of the next item), the thread that asked
/// for cancellation or closed the limiter (``ConcurrencyLimiter/Event/removed(queuedFor:)``). Keep it
/// short and non-blocking; it must not call back into the limiter in a way that waits for it.
///
/// ## Order
/// Events of one thread arrive in order. Events raised on different threads may arrive in either order:
/// an item queued on one thread can be started by another before the first reports
/// ``ConcurrencyLimiter/Event/queued``. Count with increments and decrements (they commute), not with
/// absolute values, and the totals are exact once the limiter is quiet.
///
/// ## Cost
/// Without an observer the limiter pays one `nil` check per event and stamps no time. With one it reads
/// `ContinuousClock.now` at each submission, start, finish and removal, and calls ``observe(_:)`` once per
/// event; nothing is allocated for it.
public protocol ConcurrencyLimiterObserver: Sendable {
    /// Called once per event of the limiter (see *When it is called*).
    func observe(_ event: ConcurrencyLimiter.Event)
}

extension ConcurrencyLimiter {
    /// Something that happened to one submitted item (see ``ConcurrencyLimiterObserver``).
    ///
    /// Every item is either ``refused`` (submitted after ``ConcurrencyLimiter/close()``), or ``started(queuedFor:)``
    /// at once, or ``queued`` and then either ``started(queuedFor:)`` or ``removed(queuedFor:)``; every
    /// started item later ``finished(ranFor:)``, when its slot frees.
    public enum Event: Sendable, Hashable {
        /// It waits for a slot: one more item queued.
        case queued
        /// It was given a slot, and its closure is about to run: one more item running. `queuedFor` is
        /// how long it waited in its queue, or `nil` when it started at submission (it never waited).
        case started(queuedFor: Duration?)
        /// Its work's future completed and its slot is free: one fewer item running. `ranFor` is the time
        /// from its start. (An item given a slot just as the limiter closed frees it unrun, after about
        /// zero.)
        case finished(ranFor: Duration)
        /// It was taken out of its queue unrun (a cancellation request while it waited, or
        /// ``ConcurrencyLimiter/close()``): one fewer item queued. `queuedFor` is how long it waited.
        case removed(queuedFor: Duration)
        /// It was submitted after ``ConcurrencyLimiter/close()`` and never queued or ran.
        case refused
    }

    /// A future that completes when no work runs or waits in the limiter: at once if none does now, else
    /// when the last running item's work completes.
    ///
    /// After ``close()`` nothing new is admitted, so it completes once the running work has drained (its
    /// futures completed, which a work that honours the close's cancellation request does soon):
    ///
    /// ```swift
    /// limiter.close()  // queued work is dropped, running work is asked to stop
    /// limiter.whenIdle().onComplete(immediateExecutionContext) { _ in
    ///     print("drained")
    /// }
    /// ```
    ///
    /// On an open limiter it completes the next time it is idle, even if work is submitted again right
    /// after. Calls made while it is busy share one future, which the limiter holds until then; it completes
    /// on the thread that completed the last work's future, after that item's own future (see
    /// ``Future/onComplete(_:callback:)-(ExecutionContext,_)`` for where callbacks run). A cancellation request
    /// on it does nothing (it cannot fail); to stop waiting, stop using it.
    public func whenIdle() -> Future<Void, Never> {
        let fresh = Future<Void, Never>()  // allocated before locking
        let waiter = withState { state -> Future<Void, Never>? in
            guard state.itemCount > 0 else { return nil }
            if let waiter = state.idleWaiter { return waiter }
            state.idleWaiter = fresh
            return fresh
        }
        return waiter ?? Future(value: ())
    }
}
