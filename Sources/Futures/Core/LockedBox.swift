/// A value guarded by a ``SpinLock``; for rarely written process-wide settings.
final class LockedBox<Value: Sendable>: Sendable {
    private let lock = SpinLock()
    // Only accessed between `lock.lock()` and `lock.unlock()`, so never concurrently.
    nonisolated(unsafe) private var storage: Value

    init(_ value: Value) {
        self.storage = value
    }

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
    func withValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}
