/// A value guarded by a ``ParkingLock``; for rarely written process-wide settings. `package`: the
/// interop modules of this package keep their small state in it too (one lock for the whole package).
@usableFromInline
package final class LockedBox<Value: Sendable>: Sendable {
    @usableFromInline
    let lock = ParkingLock()
    // Only accessed inside `lock.withLock`, so never concurrently; and never two accesses at once on one
    // thread either, because a nested access would take the (non-recursive) lock twice and deadlock first.
    // So the runtime's exclusivity check (a call and a per-thread table look-up per access, about 150
    // instructions) could never fire, and is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var storage: Value

    @inlinable
    package init(_ value: Value) {
        self.storage = value
    }

    @inlinable
    package var value: Value {
        get {
            lock.withLock { storage }
        }
        set {
            // The old value is taken out under the lock and released after it: its `deinit` (or that of
            // something it captured) may read or replace this very value.
            let old = lock.withLock { () -> Value in
                let old = storage
                storage = newValue
                return old
            }
            _ = consume old
        }
    }

    /// Mutates the value under the lock and returns what `body` returns. `body` must not release anything of
    /// the user's (overwrite or drop a value whose last reference it holds): move such values out and
    /// return them, so that the caller releases them after the lock.
    @inlinable
    package func withValue<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(&storage) }
    }
}
