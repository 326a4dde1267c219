import Synchronization

/// One subscriber of a ``FutureStream``: where its handler runs, and whether it is still subscribed.
///
/// The handler and the mailbox live in the stream's ``StreamState``; this object is the subscriber's
/// identity, the handle a ``CancelToken`` (or an ``InvalidationToken``) keeps, and the flag a drainer
/// checks before every event.
@usableFromInline
final class StreamSubscription: CancellableRegistration, Sendable {
    private enum Phase: UInt8 {
        case active = 0
        case cancelled = 1
        case ended = 2
    }

    /// Where the handler runs (never a gated context: a gate is unwrapped into `gate`).
    @usableFromInline
    let context: ExecutionContext
    /// An invalidation token's gate, checked before every event; `nil` for an ungated context.
    @usableFromInline
    let gate: (@Sendable () -> Bool)?
    private let phase = Atomic<UInt8>(Phase.active.rawValue)
    /// Where this subscription's slot is in its stream's ``StreamState`` (`-1`: not there), so the
    /// state finds and removes it in O(1). Read and written only under the stream's lock (a
    /// subscription belongs to one stream); atomic, with relaxed ordering, only because the class is
    /// `Sendable`.
    @usableFromInline
    let position = Atomic<Int>(-1)
    /// Set under the stream's lock when a drainer must start (beyond 64 subscribers); claimed after.
    private let startFlag = Atomic<Bool>(false)
    /// Removes this subscription from its stream (held weakly there); returns whether it was subscribed.
    private let detach: @Sendable (StreamSubscription) -> Bool
    private let onCancel: LockedBox<(@Sendable () -> Void)?>
    /// Tells the invalidation tokens that keep this subscription to forget it (once, when it is spent).
    private let settled: LockedBox<(@Sendable (ObjectIdentifier) -> Void)?>

    init(
        context: ExecutionContext,
        gate: (@Sendable () -> Bool)? = nil,
        onCancel: (@Sendable () -> Void)?,
        settled: (@Sendable (ObjectIdentifier) -> Void)? = nil,
        detach: @escaping @Sendable (StreamSubscription) -> Bool
    ) {
        self.context = context
        self.gate = gate
        self.onCancel = LockedBox(onCancel)
        self.settled = LockedBox(settled)
        self.detach = detach
    }

    /// The placeholder that a removed subscriber's slot (a tombstone) holds in a stream's state: never
    /// subscribed, never started.
    @usableFromInline
    static let tombstone = StreamSubscription(context: immediateExecutionContext, onCancel: nil) { _ in false }

    /// Whether the handler may still run.
    var isLive: Bool { phase.load(ordering: .acquiring) == Phase.active.rawValue }

    /// Whether ``cancel()`` switched it off (checked before every event).
    @usableFromInline
    var isCancelled: Bool { phase.load(ordering: .acquiring) == Phase.cancelled.rawValue }

    /// Whether the next event may be handed to the handler: not cancelled, and its gate (if any) open.
    /// A closed gate found here removes and releases the subscription at once.
    @inlinable
    func mayDeliver() -> Bool {
        if isCancelled { return false }
        if let gate, !gate() {
            invalidate()
            return false
        }
        return true
    }

    /// Unsubscribes for good: no event is handed to the handler after this returns, and the handler,
    /// the mailbox and the `onCancel` action are released (after every lock is released). Runs
    /// `onCancel`; returns whether it was still subscribed.
    func cancel() -> Bool {
        switchOff(runningOnCancel: true)
    }

    /// Unsubscribes like ``cancel()`` without running `onCancel` (an invalidation token's way).
    @usableFromInline
    func invalidate() {
        _ = switchOff(runningOnCancel: false)
    }

    private func switchOff(runningOnCancel: Bool) -> Bool {
        let (exchanged, _) = phase.compareExchange(
            expected: Phase.active.rawValue, desired: Phase.cancelled.rawValue, ordering: .acquiringAndReleasing)
        guard exchanged else { return false }
        _ = detach(self)
        let action = onCancel.take()
        if runningOnCancel { action?() }
        _ = consume action
        settled.take()?(ObjectIdentifier(self))
        return true
    }

    /// Records that the end was delivered; the subscription is then spent.
    @usableFromInline
    func markEnded() {
        _ = phase.compareExchange(
            expected: Phase.active.rawValue, desired: Phase.ended.rawValue, ordering: .acquiringAndReleasing)
        // Taken out, then released and called outside the box's lock.
        let action = onCancel.take()
        _ = consume action
        settled.take()?(ObjectIdentifier(self))
    }

    /// Marks that a drainer must start (under the stream's lock).
    @usableFromInline
    func flagStart() {
        startFlag.store(true, ordering: .releasing)
    }

    /// Claims a start flagged by ``flagStart()``: `true` for exactly one caller per flag.
    @usableFromInline
    func claimStart() -> Bool {
        startFlag.exchange(false, ordering: .acquiringAndReleasing)
    }
}
