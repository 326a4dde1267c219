import Synchronization

/// One subscriber of a ``FutureStream``: where its handler runs, and whether it is still subscribed.
///
/// The handler and the mailbox live in the stream's ``StreamState``; this object is the subscriber's
/// identity, the handle a ``CancelToken`` keeps, and the flag a drainer checks before every event.
@usableFromInline
final class StreamSubscription: CancellableRegistration, Sendable {
    private enum Phase: UInt8 {
        case active = 0
        case cancelled = 1
        case ended = 2
    }

    @usableFromInline
    let context: ExecutionContext
    private let phase = Atomic<UInt8>(Phase.active.rawValue)
    /// Removes this subscription from its stream (held weakly there); returns whether it was subscribed.
    private let detach: @Sendable (StreamSubscription) -> Bool
    private let onCancel: LockedBox<(@Sendable () -> Void)?>

    init(
        context: ExecutionContext,
        onCancel: (@Sendable () -> Void)?,
        detach: @escaping @Sendable (StreamSubscription) -> Bool
    ) {
        self.context = context
        self.onCancel = LockedBox(onCancel)
        self.detach = detach
    }

    /// Whether the handler may still run.
    var isLive: Bool { phase.load(ordering: .acquiring) == Phase.active.rawValue }

    /// Whether ``cancel()`` switched it off (checked before every event).
    @usableFromInline
    var isCancelled: Bool { phase.load(ordering: .acquiring) == Phase.cancelled.rawValue }

    /// Unsubscribes for good: no event is handed to the handler after this returns, and the handler,
    /// the mailbox and the `onCancel` action are released. Returns whether it was still subscribed.
    func cancel() -> Bool {
        let (exchanged, _) = phase.compareExchange(
            expected: Phase.active.rawValue, desired: Phase.cancelled.rawValue, ordering: .acquiringAndReleasing)
        guard exchanged else { return false }
        _ = detach(self)
        let action = onCancel.withValue { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
        return true
    }

    /// Records that the end was delivered; the subscription is then spent.
    @usableFromInline
    func markEnded() {
        _ = phase.compareExchange(
            expected: Phase.active.rawValue, desired: Phase.ended.rawValue, ordering: .acquiringAndReleasing)
        onCancel.value = nil
    }
}
