/// What a producer observes to learn that its consumers no longer want the result.
///
/// A token is the read side of a cancellation request. It is cooperative: a request never stops work
/// by force and never completes a future by itself; the producer checks ``isCancellationRequested``
/// or registers a handler with ``onCancellationRequested(_:)`` and reacts (stops early, cancels a
/// network request, fails its future with a cancellation error, …).
///
/// Every cancellation in the library goes through this one mechanism, the cancellation request of
/// the future's core cell:
/// - a ``Promise``'s ``Promise/cancellationToken`` fires when someone calls
///   ``Future/requestCancellation()`` on its future;
/// - a ``CancellationSource`` fires its ``CancellationSource/token``
///   when ``CancellationSource/cancel()`` is called;
/// - ``Future/init(priority:file:line:operation:)`` turns a request into Swift task cancellation, and
///   ``Future/requestCancellation(when:)`` turns a token into a request.
///
/// Tokens are values: copy them and pass them across threads freely.
public struct CancellationToken: Sendable {
    /// The cell whose cancellation request this token observes; `nil` for ``never``.
    let signal: (any CancellationSignal)?

    init(signal: (any CancellationSignal)?) {
        self.signal = signal
    }

    /// A token that is never cancelled (registering on it stores nothing).
    public static let never = CancellationToken(signal: nil)

    /// `true` once cancellation has been requested (while the observed work was still pending).
    public var isCancellationRequested: Bool {
        signal?.isCancellationRequested ?? false
    }

    /// Registers `handler` to run once, when cancellation is requested.
    ///
    /// - `handler` runs on the thread that requests cancellation; if cancellation was already
    ///   requested, it runs at once, on the calling thread, before this method returns.
    /// - It runs at most once, and never after ``CancellationRegistration/dispose()`` has returned.
    /// - It is released (never run) when the observed work completes first, or when the registration
    ///   is disposed, so it may capture expensive resources.
    ///
    /// - Returns: A registration; dispose it when the handler is no longer needed. Dropping the
    ///   registration does not unregister the handler.
    @discardableResult
    public func onCancellationRequested(_ handler: @escaping @Sendable () -> Void) -> CancellationRegistration {
        let slot = LockedBox<(@Sendable () -> Void)?>(handler)
        guard let signal else {
            return CancellationRegistration(slot: nil, remove: nil)
        }
        // The cell holds the handler through a guard: if the cell drops it unrun (completion, a disposed
        // source), the guard's deinit empties the slot, so the registration turns inactive and releases
        // the handler then, not when the registration itself goes away.
        let guardian = SlotGuard(slot)
        let remove = signal.registerCancellationHandler {
            if let handler = guardian.slot.take() { handler() }
        }
        if remove == nil {
            // Not stored: it already ran, or the observed work completed and it never will. Release it.
            _ = slot.take()
        }
        return CancellationRegistration(slot: slot, remove: remove)
    }
}

/// A handler registered with ``CancellationToken/onCancellationRequested(_:)``.
///
/// ``dispose()`` unregisters the handler and releases it. It is safe to call from any thread, any
/// number of times, and concurrently with a cancellation request.
public final class CancellationRegistration: Sendable {
    private let slot: LockedBox<(@Sendable () -> Void)?>?
    private let remove: (@Sendable () -> Void)?

    init(slot: LockedBox<(@Sendable () -> Void)?>?, remove: (@Sendable () -> Void)?) {
        self.slot = slot
        self.remove = remove
    }

    /// `true` while the handler can still run (neither run, nor disposed, nor dropped).
    public var isActive: Bool {
        slot?.value != nil
    }

    /// Unregisters the handler: once this returns, the handler will not start (if a cancellation
    /// request raced with this call and won, the handler may still be running on that thread).
    /// Idempotent.
    public func dispose() {
        _ = slot?.take()
        remove?()
    }
}

/// A cell whose cancellation can be requested: every ``Future`` is one.
protocol CancellationSignal: AnyObject, Sendable {
    var isCancellationRequested: Bool { get }
    /// Registers a removable handler; returns a function that removes it again, or `nil` if the
    /// handler already ran (cancellation was requested) or will never run (completed).
    func registerCancellationHandler(_ handler: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)?
}

extension Future: CancellationSignal {}

/// Empties a registration's slot when the cell releases the handler it stored, run or not.
final class SlotGuard: Sendable {
    let slot: LockedBox<(@Sendable () -> Void)?>

    init(_ slot: LockedBox<(@Sendable () -> Void)?>) {
        self.slot = slot
    }

    deinit {
        // Released outside the cell's lock (cells release handlers after unlocking).
        _ = slot.take()
    }
}

extension LockedBox {
    /// Takes the value out, leaving `nil`.
    func take<Wrapped>() -> Wrapped? where Value == Wrapped? {
        withValue { value in
            let taken = value
            value = nil
            return taken
        }
    }
}
