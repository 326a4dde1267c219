/// A value guarded by a ``SpinLock``; for rarely written process-wide settings.
@usableFromInline
final class LockedBox<Value: Sendable>: Sendable {
    @usableFromInline
    let lock = SpinLock()
    // Only accessed between `lock.lock()` and `lock.unlock()`, so never concurrently.
    @usableFromInline
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
