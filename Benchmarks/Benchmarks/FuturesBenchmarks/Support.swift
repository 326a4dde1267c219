import Benchmark
import Dispatch
import Synchronization

/// Configurations shared by the workloads.
enum Config {
    /// Counts printed as plain numbers (not auto-scaled to K or M), so the runner parses exact figures.
    static let plainUnits: [BenchmarkMetric: BenchmarkUnits] = [
        .mallocCountTotal: .count, .mallocBytesCount: .count, .peakMemoryResident: .count,
        .peakMemoryResidentDelta: .count, .throughput: .count,
    ]

    /// Small operations: 1,000 operations per sample, so the harness's own mallocs (~16 per sample)
    /// vanish in the per-operation figure. Output marked `*` is per operation.
    static func kilo(_ extra: [BenchmarkMetric] = []) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal] + extra,
            timeUnits: .nanoseconds,
            units: plainUnits,
            warmupIterations: 3,
            scalingFactor: .kilo,
            maxDuration: .milliseconds(1500),
            maxIterations: 10_000
        )
    }

    /// Big operations (one sample = one whole workload of thousands or millions of steps).
    static func batch(
        _ extra: [BenchmarkMetric] = [],
        maxDuration: Duration = .seconds(2),
        maxIterations: Int = 200,
        warmup: Int = 1
    ) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal] + extra,
            timeUnits: .microseconds,
            units: plainUnits,
            warmupIterations: warmup,
            scalingFactor: .one,
            maxDuration: maxDuration,
            maxIterations: maxIterations
        )
    }
}

/// Stops the benchmark loudly when a workload produced a wrong result (a lost or doubled callback).
@inline(never)
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("benchmark self-check failed: \(message())") }
}

/// A counter shared between threads.
final class AtomicCounter: Sendable {
    let value = Atomic<Int>(0)
    @inline(__always) func increment() { value.add(1, ordering: .relaxed) }
    /// Adds one and returns the new value, with acquire-release ordering (for "last one signals").
    @inline(__always) func incrementAndGet() -> Int { value.add(1, ordering: .acquiringAndReleasing).newValue }
    var current: Int { value.load(ordering: .acquiring) }
}

/// A value passed between threads by the benchmark's own scaffolding (never raced: handed over
/// through a semaphore or a join, which orders the accesses).
final class Handoff<T>: @unchecked Sendable {
    // Safe: every use writes before a DispatchSemaphore.signal / DispatchGroup.leave and reads after
    // the matching wait, which orders the accesses.
    var value: T
    init(_ value: T) { self.value = value }
}

/// The raw-closure floor's "future": a lock-protected cell holding either a result or one callback.
final class ClosureCell: @unchecked Sendable {
    // Safe: `result` and `callback` are read and written only while holding `lock`.
    private let lock = Mutex<Void>(())
    private var result: Int?
    private var callback: (@Sendable (Int) -> Void)?

    func complete(_ value: Int) {
        let pending: (@Sendable (Int) -> Void)? = lock.withLock { _ in
            result = value
            defer { callback = nil }
            return callback
        }
        pending?(value)
    }

    func observe(_ body: @escaping @Sendable (Int) -> Void) {
        let ready: Int? = lock.withLock { _ in
            if let result { return result }
            callback = body
            return nil
        }
        if let ready { body(ready) }
    }
}

/// A value shared between threads under a lock (a class, so escaping closures can capture it).
final class Locked<Value>: Sendable where Value: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R>(_ body: (inout sending Value) -> sending R) -> sending R {
        mutex.withLock(body)
    }
}
