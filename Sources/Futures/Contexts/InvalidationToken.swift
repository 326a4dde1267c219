import Synchronization

/// Something that can tell whether callbacks guarded by it may still run.
///
/// BrightFutures' protocol for invalidation tokens; ``InvalidationToken`` is the implementation to use.
public protocol InvalidationTokenType: Sendable {
    /// Whether the token is invalid: callbacks registered through ``validContext`` no longer run.
    var isInvalid: Bool { get }

    /// A future that fails with ``CombinatorError/invalidationTokenInvalidated`` when the token
    /// becomes invalid; it never succeeds.
    var future: Future<Never, CombinatorError<Never>> { get }
}

/// An invalidation token that can be invalidated by hand.
public protocol ManualInvalidationTokenType: InvalidationTokenType {
    /// Invalidates the token. Idempotent.
    func invalidate()
}

extension InvalidationTokenType {
    /// A context that runs tasks on ``defaultContext()`` (as chosen now) while the token is valid.
    ///
    /// The check happens when the task runs, on that context: a callback whose turn comes after
    /// ``ManualInvalidationTokenType/invalidate()`` is skipped, and only that callback. The callbacks
    /// registered after it on the same future still run. A transform (`map`, `flatMap`, …) skipped this
    /// way leaves its returned future pending forever (like BrightFutures).
    public var validContext: ExecutionContext {
        validContext(defaultContext())
    }

    /// A context that runs tasks on `parent` while the token is valid, and skips them once it is not.
    ///
    /// The check happens on `parent`, right before the task would run. Called directly
    /// (`token.validContext(.main) { … }`) the task is simply dropped once the token is invalid.
    ///
    /// With an ``InvalidationToken``, a callback or stream subscription registered through this
    /// context is also handed to the token, and ``InvalidationToken/invalidate()`` removes it from the
    /// pending future or the stream and releases it (and what it captured) at once. The context holds
    /// the token; a registration holds only the token's invalid flag, never the token.
    public func validContext(_ parent: ExecutionContext) -> ExecutionContext {
        if let token = self as? InvalidationToken {
            // The gate holds the token's flag, not the token: a registration the token keeps never
            // keeps the token alive, and a token dropped after `invalidate()` stays invalid.
            let flag = token.flag
            return parent.gated(by: { !flag.isSet }, tracker: token)
        }
        return parent.gated { [self] in !self.isInvalid }
    }
}

/// Prevents callbacks from running once it is invalidated; for views that are reused, such as cells.
///
/// ```swift
/// final class MyCell: UICollectionViewCell {
///     var token = InvalidationToken()
///
///     override func prepareForReuse() {
///         super.prepareForReuse()
///         token.invalidate()
///         token = InvalidationToken()
///     }
///
///     func setModel(model: Model) {
///         ImageLoader.loadImage(model.image)
///             .onSuccess(token.validContext) { [weak self] image in
///                 self?.imageView.image = image
///             }
///     }
/// }
/// ```
///
/// Invalidating a token does not cancel the work a future represents: the result is merely ignored by
/// the callbacks registered through the token. Invalidating after a callback has run changes nothing.
/// The token is thread-safe: invalidate it and check it from any thread.
///
/// ## Memory
/// A callback or stream subscription registered through ``validContext`` is handed to the token (the
/// token keeps it until it runs, which makes the token forget it in O(1)). ``invalidate()`` removes
/// every one of them from its pending future or stream and releases it, with what it captured, at
/// once: a long-lived future or stream keeps nothing of an invalidated registration. A transform
/// skipped this way (`map`, `flatMap`, …) still leaves its returned future pending, as documented on
/// ``InvalidationTokenType/validContext``.
public final class InvalidationToken: ManualInvalidationTokenType {
    /// Set by ``invalidate()``; shared with the gates of ``validContext``.
    let flag = InvalidationFlag()
    /// Guards `registrations` and `sweepAt`. Never held while user code runs or a registration is released.
    private let lock = ParkingLock()
    // Only read and written inside `lock.withLock`, so never concurrently; the values are only used to
    // call their thread-safe `invalidate()`/`isLive` after unlocking (or under the lock for `isLive`).
    nonisolated(unsafe) private var registrations: [ObjectIdentifier: any CancellableRegistration] = [:]
    nonisolated(unsafe) private var sweepAt = 16

    /// A future that fails with ``CombinatorError/invalidationTokenInvalidated`` on ``invalidate()``.
    public let future = Future<Never, CombinatorError<Never>>()

    /// Creates a valid token.
    public init() {
        // A signal, not a result someone must handle: its failure is never an unobserved failure.
        future.markObserved()
    }

    /// Whether ``invalidate()`` has been called.
    public var isInvalid: Bool {
        flag.isSet
    }

    /// Invalidates the token: callbacks guarded by it that have not started yet will not run, and
    /// ``future`` fails. Calling it again does nothing.
    ///
    /// Every callback and stream subscription registered through ``validContext`` that has not run
    /// yet is removed and released (with its captures) before this method returns, on this thread.
    public func invalidate() {
        guard flag.set() else { return }
        var taken = lock.withLock { () -> [ObjectIdentifier: any CancellableRegistration] in
            let taken = registrations
            registrations = [:]
            return taken
        }
        for registration in taken.values { registration.invalidate() }
        taken = [:]
        future.complete(.failure(.invalidationTokenInvalidated))
    }

    /// Keeps `registration` until it runs or the token is invalidated; `false` (nothing kept) if the
    /// token is already invalid.
    func track(_ registration: any CancellableRegistration) -> Bool {
        let (tracked, mustSweep) = lock.withLock { () -> (Bool, Bool) in
            if isInvalid { return (false, false) }
            registrations[ObjectIdentifier(registration)] = registration
            return (true, registrations.count >= sweepAt)
        }
        guard tracked else { return false }
        if mustSweep { sweep() }
        return true
    }

    /// Forgets the registration with identity `id` (it ran, or was cancelled); O(1).
    func forget(_ id: ObjectIdentifier) {
        let taken = lock.withLock { registrations.removeValue(forKey: id) }
        _ = consume taken
    }

    /// How many registrations the token keeps (for tests).
    var registrationCountForTesting: Int {
        lock.withLock { registrations.count }
    }

    /// Forgets registrations that can no longer run (their future is gone); run when the count doubled
    /// since the last sweep, so O(1) amortised. What it drops is moved into an array allocated before
    /// locking and released after unlocking.
    private func sweep() {
        let estimate = lock.withLock { registrations.count }
        var deadKeys = ContiguousArray<ObjectIdentifier>()
        deadKeys.reserveCapacity(estimate)
        var dropped = ContiguousArray<any CancellableRegistration>()
        dropped.reserveCapacity(estimate)
        lock.withLock {
            for (key, registration) in registrations where !registration.isLive && deadKeys.count < deadKeys.capacity {
                deadKeys.append(key)
            }
            for key in deadKeys {
                if let registration = registrations.removeValue(forKey: key) { dropped.append(registration) }
            }
            sweepAt = max(16, registrations.count * 2)
        }
        dropped = []
        _ = dropped
    }

    /// What a registration made through `trackers`' context calls when it ran or was switched off:
    /// makes each token forget it (held weakly, so a registration never keeps a token alive).
    static func forgetting(in trackers: [InvalidationToken]) -> @Sendable (ObjectIdentifier) -> Void {
        if trackers.count == 1 {
            let token = trackers[0]
            return { [weak token] id in token?.forget(id) }
        }
        let weakTokens = trackers.map { WeakInvalidationToken(token: $0) }
        return { id in
            for weak in weakTokens { weak.token?.forget(id) }
        }
    }
}

/// A weak reference to a token, for ``InvalidationToken/forgetting(in:)``.
private struct WeakInvalidationToken: Sendable {
    weak var token: InvalidationToken?
}

/// Whether an ``InvalidationToken`` was invalidated: a separate object, so that the gates of its
/// contexts can hold it without holding the token.
final class InvalidationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    /// Sets the flag; `true` for the first call only.
    func set() -> Bool {
        !value.exchange(true, ordering: .acquiringAndReleasing)
    }
}
