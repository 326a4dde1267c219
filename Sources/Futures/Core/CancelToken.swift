/// A handle for unsubscribing callbacks: the `SimpleFutures` module's `CancelToken`.
///
/// That module's callbacks and combinators take one (`cancelToken:`), and `cancel(token)` on the future or
/// stream they were registered on switches them off. No method of this module takes a token: in
/// `import Futures` code, an ``InvalidationToken`` switches off the callbacks registered through its
/// `validContext`.
///
/// A token only decides **whether** a callback still runs (never where). Cancelling never touches the
/// future's result, and does not ask the producer to stop (see ``Future/requestCancellation()`` for that).
/// One token may be used on any number of futures and streams, from any thread; `cancel` on one of them
/// affects only the callbacks registered on that one.
///
/// ## Cost
/// Registering and `cancel(token)` cost O(1) amortised, however many owners share the token: the token
/// keeps one bucket of registrations per owner (keyed by the owner's identity), and forgets
/// registrations that ran or whose owner is gone in a periodic sweep whose cost is proportional to
/// what it keeps. Nothing is released and no user code runs under the token's lock: cancelled
/// registrations are taken out first, then switched off and released.
public final class CancelToken: Sendable {
    /// Guards the fields below. Never held while user code runs or a registration is released.
    private let lock = ParkingLock()
    // Only read and written inside `lock.withLock`, so never concurrently; the stored handles are only
    // used to call `cancel()`/`isLive` (thread-safe) and compare identities.
    nonisolated(unsafe) private var buckets: [ObjectIdentifier: Bucket] = [:]
    /// How many handles the buckets hold.
    nonisolated(unsafe) private var handleCount = 0
    /// `handleCount` at which the next sweep runs (twice what the last sweep kept, at least 16).
    nonisolated(unsafe) private var sweepAt = 16
    /// Buckets and handles visited by lookups and sweeps (for the complexity test).
    nonisolated(unsafe) private var visits = 0

    /// Creates a token with no registrations.
    public init() {}

    /// The token used when a caller passes none: never stored, so it costs nothing.
    @usableFromInline
    package static let unused = CancelToken()

    /// Whether this is the shared placeholder used for an omitted `cancelToken:` argument.
    @inlinable
    var isUnused: Bool { self === CancelToken.unused }

    /// The registrations made on one owner. The owner is held weakly: when it is gone, a new object
    /// may get the same address (the same key), so a bucket counts only while `owner` is still there.
    private struct Bucket {
        weak var owner: AnyObject?
        var handles: ContiguousArray<any CancellableRegistration>
    }

    /// Remembers that `handle` was registered on `owner` with this token.
    func register(_ handle: any CancellableRegistration, on owner: AnyObject) {
        guard !isUnused else { return }
        let key = ObjectIdentifier(owner)
        // Built outside the lock: the common case is the first registration on an owner.
        var fresh: ContiguousArray<any CancellableRegistration>? = [handle]
        let (stale, mustSweep) = lock.withLock { () -> (Bucket?, Bool) in
            visits += 1
            var stale: Bucket?
            if let existing = buckets[key]?.owner, existing === owner {
                buckets[key]!.handles.append(handle)
            } else {
                // Absent, or left by a dead owner whose address was reused: replace it (released below).
                stale = buckets.removeValue(forKey: key)
                handleCount -= stale?.handles.count ?? 0
                buckets[key] = Bucket(owner: owner, handles: fresh.take()!)
            }
            handleCount += 1
            return (stale, handleCount >= sweepAt)
        }
        // Released here, outside the lock: a stale bucket may hold live callbacks of a dead owner.
        _ = consume stale
        fresh = nil
        if mustSweep { sweep() }
    }

    /// Forgets handles that can no longer run and buckets whose owner is gone; O(what it visits),
    /// run when the number of handles doubled since the last sweep, so O(1) amortised per registration.
    ///
    /// Dropped buckets are moved into arrays allocated before locking and released after unlocking.
    private func sweep() {
        let estimate = lock.withLock { buckets.count }
        var deadKeys = ContiguousArray<ObjectIdentifier>()
        deadKeys.reserveCapacity(estimate)
        var dropped = ContiguousArray<Bucket>()
        dropped.reserveCapacity(estimate)
        lock.withLock {
            // A manual index walk: mutating `values` in place keeps the storage unique (no copy).
            var index = buckets.startIndex
            while index != buckets.endIndex {
                visits += 1 + buckets.values[index].handles.count
                if buckets.values[index].owner != nil {
                    // A handle that is no longer live holds nothing of the user's (its body was released
                    // when it ran or was cancelled), so dropping it here releases no user object.
                    buckets.values[index].handles.removeAll { !$0.isLive }
                }
                if buckets.values[index].owner == nil || buckets.values[index].handles.isEmpty,
                    deadKeys.count < deadKeys.capacity
                {
                    deadKeys.append(buckets.keys[index])
                }
                buckets.formIndex(after: &index)
            }
            for key in deadKeys {
                if let bucket = buckets.removeValue(forKey: key) { dropped.append(bucket) }
            }
            handleCount = 0
            for bucket in buckets.values { handleCount += bucket.handles.count }
            sweepAt = max(16, handleCount * 2)
        }
        // Released here: a dead owner's bucket may still hold live callbacks and their captures.
        dropped = []
    }

    /// How many registrations the token currently remembers (for tests).
    var registrationCountForTesting: Int {
        lock.withLock { handleCount }
    }

    /// Buckets and handles visited so far by lookups and sweeps (for the complexity test).
    var visitsForTesting: Int {
        lock.withLock { visits }
    }

    /// Cancels every live registration made with this token on `owner`; returns whether there was one.
    ///
    /// O(registrations on `owner`): the owner's bucket is taken out under the lock, then its handles
    /// are switched off and released after unlocking.
    func cancelRegistrations(on owner: AnyObject) -> Bool {
        guard !isUnused else { return false }
        let key = ObjectIdentifier(owner)
        var taken = lock.withLock { () -> Bucket? in
            visits += 1
            let taken = buckets.removeValue(forKey: key)
            handleCount -= taken?.handles.count ?? 0
            return taken
        }
        guard let bucket = taken.take(), bucket.owner === owner else {
            // A dead owner's bucket at a reused address: released here, nothing is cancelled.
            return false
        }
        var cancelledAny = false
        for handle in bucket.handles where handle.cancel() {
            cancelledAny = true
        }
        return cancelledAny
    }
}

/// Something registered with a ``CancelToken`` (or an ``InvalidationToken``) that can be switched off.
protocol CancellableRegistration: AnyObject, Sendable {
    /// Whether it may still run.
    var isLive: Bool { get }
    /// Stops it for good and releases what it holds; returns whether it was still live.
    func cancel() -> Bool
    /// Stops it for good and releases what it holds, as ``cancel()``, but without the cancellation
    /// action of a combinator (used by ``InvalidationToken/invalidate()``).
    func invalidate()
}

extension Optional {
    /// Moves the value out, leaving `nil`.
    @inlinable
    mutating func take() -> Wrapped? {
        let taken = self
        self = nil
        return taken
    }
}
