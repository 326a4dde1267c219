import Benchmark
import Dispatch
import Synchronization

// Shared by the FuturesBenchmarks (all libraries) and FuturesAllocations (this package only) executables.

/// Configurations shared by the workloads.
public enum Config {
    /// Set by the FuturesAllocations executable (the allocation gate) before it registers anything:
    /// malloc counts are deterministic, so a few samples are enough and the gate stays fast.
    nonisolated(unsafe) public static var allocationGate = false

    /// Counts printed as plain numbers (not auto-scaled to K or M), so the runner parses exact figures.
    public static var plainUnits: [BenchmarkMetric: BenchmarkUnits] {
        [
            .mallocCountTotal: .count, .mallocBytesCount: .count, .peakMemoryResident: .count,
            .peakMemoryResidentDelta: .count, .throughput: .count,
        ]
    }

    /// Allocation gate tolerance (`swift package benchmark thresholds check`): the p90 malloc count
    /// may exceed the checked-in one by 3% (harness and Dispatch noise). One more malloc per operation
    /// is +5% or more on every workload. Streams allocate nothing per value (a sample's ~15 mallocs are
    /// the harness's), so they allow 100%: one malloc per value would add 1,000. Other metrics are not
    /// checked.
    public static var allocationTolerance: [BenchmarkMetric: BenchmarkThresholds] {
        allocationTolerance(percent: 3)
    }

    /// The gate's tolerance in percent of the checked-in p90 malloc count, and of the requested bytes when the
    /// benchmark measures them (`mallocBytesCount`: W5's bytes per pending future, one `map`'s bytes).
    public static func allocationTolerance(
        percent: Double,
        bytes: Bool = false
    ) -> [BenchmarkMetric: BenchmarkThresholds] {
        var tolerance: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(relative: [.p90: percent])]
        if bytes { tolerance[.mallocBytesCount] = .init(relative: [.p90: percent]) }
        return tolerance
    }

    /// Small operations: 1,000 operations per sample, so the harness's own mallocs (~16 per sample)
    /// vanish in the per-operation figure. Output marked `*` is per operation.
    public static func kilo(_ extra: [BenchmarkMetric] = [], tolerancePercent: Double = 3) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal] + extra,
            timeUnits: .nanoseconds,
            units: plainUnits,
            warmupIterations: 3,
            scalingFactor: .kilo,
            maxDuration: allocationGate ? .milliseconds(200) : .milliseconds(1500),
            maxIterations: allocationGate ? 30 : 10_000,
            thresholds: allocationTolerance(percent: tolerancePercent, bytes: extra.contains(.mallocBytesCount))
        )
    }

    /// W5: per-future mallocs and requested bytes, a million futures per sample (`scalingFactor: .mega`).
    /// Shared by the Futures registration (with the gate's tolerance) and the competitors'.
    public static func perMillionFutures() -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
            timeUnits: .nanoseconds,
            units: plainUnits,
            warmupIterations: 1,
            scalingFactor: .mega,
            maxDuration: .seconds(3),
            maxIterations: allocationGate ? 2 : 6,
            thresholds: allocationTolerance(percent: 3, bytes: true)
        )
    }

    /// Big operations (one sample = one whole workload of thousands or millions of steps).
    public static func batch(
        _ extra: [BenchmarkMetric] = [],
        maxDuration: Duration = .seconds(2),
        maxIterations: Int = 200,
        warmup: Int = 1,
        tolerancePercent: Double = 3
    ) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal] + extra,
            timeUnits: .microseconds,
            units: plainUnits,
            warmupIterations: warmup,
            scalingFactor: .one,
            maxDuration: allocationGate ? .milliseconds(300) : maxDuration,
            maxIterations: allocationGate ? min(maxIterations, 5) : maxIterations,
            thresholds: allocationTolerance(percent: tolerancePercent)
        )
    }
}

/// Stops the benchmark loudly when a workload produced a wrong result (a lost or doubled callback).
@inline(never)
public func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("benchmark self-check failed: \(message())") }
}

/// A counter shared between threads.
public final class AtomicCounter: Sendable {
    /// The count.
    public let value = Atomic<Int>(0)
    /// A counter at zero.
    public init() {}
    /// Adds one (relaxed: only the final count is read, after a join).
    @inline(__always) public func increment() { value.add(1, ordering: .relaxed) }
    /// Adds one and returns the new value, with acquire-release ordering (for "last one signals").
    @inline(__always) public func incrementAndGet() -> Int { value.add(1, ordering: .acquiringAndReleasing).newValue }
    /// The count now (acquiring).
    public var current: Int { value.load(ordering: .acquiring) }
}

/// A value passed between threads by the benchmark's own scaffolding (never raced: handed over
/// through a semaphore or a join, which orders the accesses).
public final class Handoff<T>: @unchecked Sendable {
    // Safe: every use writes before a DispatchSemaphore.signal / DispatchGroup.leave and reads after
    // the matching wait, which orders the accesses.
    /// The value handed over.
    public var value: T
    /// Wraps `value`.
    public init(_ value: T) { self.value = value }
}

/// The raw-closure floor's "future": a lock-protected cell holding either a result or one callback.
public final class ClosureCell: @unchecked Sendable {
    // Safe: `result` and `callback` are read and written only while holding `lock`.
    private let lock = Mutex<Void>(())
    private var result: Int?
    private var callback: (@Sendable (Int) -> Void)?

    /// An empty, pending cell.
    public init() {}

    /// Stores `value` and runs the callback, if one is registered.
    public func complete(_ value: Int) {
        let pending: (@Sendable (Int) -> Void)? = lock.withLock { _ in
            result = value
            defer { callback = nil }
            return callback
        }
        pending?(value)
    }

    /// Runs `body` now if completed, else stores it for `complete`.
    public func observe(_ body: @escaping @Sendable (Int) -> Void) {
        let ready: Int? = lock.withLock { _ in
            if let result { return result }
            callback = body
            return nil
        }
        if let ready { body(ready) }
    }
}

/// A value shared between threads under a lock (a class, so escaping closures can capture it).
public final class Locked<Value>: Sendable where Value: Sendable {
    private let mutex: Mutex<Value>
    /// Wraps `value`.
    public init(_ value: Value) { mutex = Mutex(value) }
    /// Runs `body` on the value under the lock.
    public func withLock<R>(_ body: (inout sending Value) -> sending R) -> sending R {
        mutex.withLock(body)
    }
}
