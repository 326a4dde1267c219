/// A value guarded by a ``SpinLock``; for rarely written process-wide settings.
@usableFromInline
final class LockedBox<Value: Sendable>: Sendable {
    @usableFromInline
    let lock = SpinLock()
    // Only accessed between `lock.lock()` and `lock.unlock()`, so never concurrently; and never two
    // accesses at once on one thread either, because a nested access would take the (non-recursive) lock
    // twice and deadlock first. So the runtime's exclusivity check (a call and a per-thread table look-up
    // per access, about 150 instructions) could never fire, and is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var storage: Value

    @inlinable
    init(_ value: Value) {
        self.storage = value
    }

    @inlinable
    var value: Value {
        get {
            lock.lock()
            defer { lock.unlock() }
            return storage
        }
        set {
            lock.lock()
            storage = newValue
            lock.unlock()
        }
    }

    /// Mutates the value under the lock and returns what `body` returns.
    @inlinable
    func withValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}
