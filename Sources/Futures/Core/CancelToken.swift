/// SimpleFutures' handle for unsubscribing callbacks: pass one token to several callbacks and
/// combinators, then call `cancel(token)` on the future or stream they were registered on.
///
/// ```swift
/// let cancelToken = CancelToken()
/// let mapped = request.flatMap(cancelToken: cancelToken) { anotherRequest($0) }
/// mapped.onSuccess(cancelToken: cancelToken) { value in … }
/// request.cancel(cancelToken)   // the flatMap's closure never runs; `mapped` goes quiet
/// ```
///
/// A token only decides **whether** a callback still runs (never where). Cancelling never touches the
/// future's result, and does not ask the producer to stop (see ``Future/requestCancellation()`` for that).
/// One token may be used on any number of futures and streams, from any thread; `cancel` on one of them
/// affects only the callbacks registered on that one.
public final class CancelToken: Sendable {
    /// Guards `registrations`. Never held while user code runs.
    private let lock = SpinLock()
    // Only read and written between `lock.lock()` and `lock.unlock()`, so never concurrently; the
    // stored values are only used to call `cancel()` (thread-safe) and compare identities.
    nonisolated(unsafe) private var registrations: [Registration] = []
    nonisolated(unsafe) private var compactAt = 16

    /// Creates a token with no registrations.
    public init() {}

    /// The token used when a caller passes none: never stored, so it costs nothing.
    @usableFromInline
    static let unused = CancelToken()

    /// Whether this is the shared placeholder used for an omitted `cancelToken:` argument.
    @usableFromInline
    var isUnused: Bool { self === CancelToken.unused }

    private struct Registration {
        weak var owner: AnyObject?
        let handle: any CancellableRegistration
    }

    /// Remembers that `handle` was registered on `owner` with this token.
    func register(_ handle: any CancellableRegistration, on owner: AnyObject) {
        guard !isUnused else { return }
        lock.lock()
        registrations.append(Registration(owner: owner, handle: handle))
        if registrations.count >= compactAt {
            // Amortised clean-up: forget handles that already ran for good or whose owner is gone.
            registrations.removeAll { $0.owner == nil || !$0.handle.isLive }
            compactAt = max(16, registrations.count * 2)
        }
        lock.unlock()
    }

    /// How many registrations the token currently remembers (for tests).
    var registrationCountForTesting: Int {
        lock.lock()
        defer { lock.unlock() }
        return registrations.count
    }

    /// Cancels every live registration made with this token on `owner`; returns whether there was one.
    func cancelRegistrations(on owner: AnyObject) -> Bool {
        guard !isUnused else { return false }
        lock.lock()
        var taken: [any CancellableRegistration] = []
        registrations.removeAll { registration in
            guard let registered = registration.owner else { return true }
            guard registered === owner else { return false }
            taken.append(registration.handle)
            return true
        }
        lock.unlock()
        var cancelledAny = false
        for handle in taken where handle.cancel() {
            cancelledAny = true
        }
        return cancelledAny
    }
}

/// Something registered with a ``CancelToken`` that can be switched off.
protocol CancellableRegistration: AnyObject, Sendable {
    /// Whether it may still run.
    var isLive: Bool { get }
    /// Stops it for good and releases what it holds; returns whether it was still live.
    func cancel() -> Bool
}
