// The faces benchmark's W1 / W2s pairs as FuturesBenchmarks runs them (FuturesWorkloads/FuturesW1.swift,
// FuturesW2s.swift, BoltsSwiftFace.swift): each in a function, the observer capturing an atomic counter,
// so that callgrind counts the code the benchmark times. `…Bench` workloads.
import Synchronization

/// The benchmark's `AtomicCounter`.
final class BenchCounter: Sendable {
    let value = Atomic<Int>(0)
    @inline(__always) func increment() { value.add(1, ordering: .relaxed) }
    var current: Int { value.load(ordering: .acquiring) }
}
