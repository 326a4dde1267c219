import Synchronization

@testable import Futures

/// A thread-safe counter that closures can capture.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    init(_ value: Int = 0) { storage.store(value, ordering: .relaxed) }
    @discardableResult
    func increment(by delta: Int = 1) -> Int { storage.add(delta, ordering: .sequentiallyConsistent).newValue }
    @discardableResult
    func decrement() -> Int { storage.subtract(1, ordering: .sequentiallyConsistent).newValue }
    var value: Int { storage.load(ordering: .sequentiallyConsistent) }
}

/// Collects values from many threads (the library's `LockedBox`, which ThreadSanitizer can see).
final class Recorder<Value: Sendable>: Sendable {
    private let storage = LockedBox<[Value]>([])
    func append(_ value: Value) { storage.withValue { $0.append(value) } }
    var values: [Value] { storage.value }
}

/// A weak reference that a `@Sendable` closure can fill in (tests check that objects are freed).
final class WeakSlot<Object: AnyObject & Sendable>: Sendable {
    private struct Reference: Sendable {
        weak var object: Object?
    }

    private let box = LockedBox(Reference())

    init(_ object: Object? = nil) {
        box.value = Reference(object: object)
    }

    var object: Object? {
        get { box.value.object }
        set { box.value = Reference(object: newValue) }
    }

    var isFreed: Bool { object == nil }
}

/// An object whose lifetime the tests watch through a weak reference.
final class Resource: Sendable {}

/// How many entries (callbacks, wake-ups, handlers) a future's cell holds right now.
func storedEntryCount<T, E>(_ future: Future<T, E>) -> Int {
    future.lock.lock()
    defer { future.lock.unlock() }
    return future.state.pendingEntries.liveCount
}

/// How many handlers a `CancellationSource`'s table holds right now.
func storedEntryCount(_ cell: CancellationHub) -> Int {
    cell.handlerCountForTesting
}

/// Collects the library's diagnostics reported while `body` runs (in this task tree).
func diagnostics(during body: () throws -> Void) rethrows -> [FuturesDiagnostic] {
    let seen = Recorder<FuturesDiagnostic>()
    try FuturesDiagnostics.withHandler({ seen.append($0) }, operation: body)
    return seen.values
}
