import Benchmark
import Foundation
import Futures
import FuturesWorkloads
import Synchronization

// Soak: 10,000,000 random operations on shared promises and futures from 4 threads at once (create and
// register, complete, register, map, drop), to show that memory stays flat: nothing of a completed or
// abandoned future survives it. Not part of the allocation gate (its malloc count depends on how the
// threads interleave); run it with
//   cd Benchmarks && swift package benchmark --target FuturesSoak --filter Soak
// A leak of one 48-byte block per operation would add ~480 MB to the peak resident memory of a sample
// and ~10,000,000 to `mallocFreeDelta`; the run checks itself against both (see `soak`).

/// How many operations one sample runs, in total, and on how many threads.
private let totalOperations = 10_000_000
private let threadCount = 4
/// Shared promises the threads pick at random: few enough that they often meet on one.
private let slotCount = 256

/// One shared slot: a promise (pending or completed) or nothing.
private final class Slot: Sendable {
    let promise = Mutex<Promise<Int, Never>?>(nil)
}

/// A small, fast, deterministic random number generator (SplitMix64), one per thread.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The resident set size of this process now, in bytes (Linux: `/proc/self/statm`; elsewhere 0).
private func residentBytes() -> Int {
    #if os(Linux)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(getpagesize())
    #else
        return 0
    #endif
}

/// Counts what happened in one sample.
private final class SoakCounters: Sendable {
    let registered = AtomicCounter()
    let ran = AtomicCounter()
    let dropped = AtomicCounter()
}

/// Dropped pending promises are part of the workload: count their reports instead of printing them.
private let droppedReports = AtomicCounter()

/// One thread's share of the operations.
private func soakThread(
    seed: UInt64,
    operations: Int,
    slots: [Slot],
    queue: ExecutionContext,
    counters: SoakCounters,
    checkpoint: (() -> Void)?
) {
    var rng = SplitMix(state: seed)
    let immediate = immediateExecutionContext
    let onRun: @Sendable (Result<Int, Never>) -> Void = { _ in counters.ran.increment() }
    for step in 0..<operations {
        if step == operations / 10 { checkpoint?() }
        let random = rng.next()
        let slot = slots[Int(random % UInt64(slotCount))]
        let choice = (random >> 16) % 32
        switch choice {
        case 0..<8:
            // A new promise with a callback replaces the slot's; the old one is completed (or dropped).
            let promise = Promise<Int, Never>()
            counters.registered.increment()
            promise.future.onComplete(immediate, callback: onRun)
            let old = slot.promise.withLock { current in
                let old = current
                current = promise
                return old
            }
            if let old, (random >> 32) % 8 != 0 {
                old.trySuccess(step)
            } else if old != nil {
                counters.dropped.increment()  // pending or not: another thread may still complete it
            }
        case 8..<14:
            // Complete the slot's promise and empty the slot.
            let old = slot.promise.withLock { current in
                let old = current
                current = nil
                return old
            }
            old?.trySuccess(step)
        case 14..<16:
            // Complete the slot's promise but leave it there: later completions lose the race.
            let current = slot.promise.withLock { $0 }
            current?.trySuccess(step)
        case 16..<22:
            // Register a callback, rarely on the serial queue.
            guard let future = slot.promise.withLock({ $0?.future }) else { continue }
            counters.registered.increment()
            future.onComplete((random >> 40) % 16 == 0 ? queue : immediate, callback: onRun)
        case 22..<30:
            // Map, and sometimes observe the mapped future; drop it either way.
            guard let future = slot.promise.withLock({ $0?.future }) else { continue }
            let mapped = future.map(immediate) { $0 &+ 1 }
            if (random >> 40) % 2 == 0 {
                counters.registered.increment()
                mapped.onComplete(immediate) { _ in counters.ran.increment() }
            }
        default:
            // Drop the slot's promise, completed or not (a pending one is reported as dropped).
            let old = slot.promise.withLock { current in
                let old = current
                current = nil
                return old
            }
            if old != nil { counters.dropped.increment() }
        }
    }
}

/// Runs one sample: 10,000,000 operations on 4 threads, then empties the slots and the queue.
/// Returns the resident memory after 10% of the operations and at the end.
private func soak(seed: UInt64) -> (early: Int, late: Int, counters: SoakCounters) {
    let slots = (0..<slotCount).map { _ in Slot() }
    let serial = DispatchQueue(label: "Soak.queue")
    let queue = ExecutionContext(queue: serial)
    let counters = SoakCounters()
    let early = Locked(0)
    let done = DispatchGroup()
    for index in 0..<threadCount {
        done.enter()
        let thread = Thread {
            soakThread(
                seed: seed &+ UInt64(index) &* 0x1000_0001,
                operations: totalOperations / threadCount,
                slots: slots,
                queue: queue,
                counters: counters,
                checkpoint: index == 0 ? { early.withLock { $0 = residentBytes() } } : nil
            )
            done.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    done.wait()
    // Whatever is left: complete it, and let the queue run its callbacks.
    for slot in slots {
        slot.promise.withLock { $0 }?.trySuccess(0)
        slot.promise.withLock { $0 = nil }
    }
    serial.sync {}
    let earlyBytes = early.withLock { $0 }
    return (earlyBytes, residentBytes(), counters)
}

let benchmarks: @Sendable () -> Void = {
    FuturesDiagnostics.setHandler { _ in droppedReports.increment() }
    Benchmark(
        "Soak",
        configuration: .init(
            metrics: [
                .wallClock, .peakMemoryResident, .peakMemoryResidentDelta, .mallocCountTotal,
                .mallocFreeDelta, .memoryLeakedBytes,
            ],
            timeUnits: .milliseconds,
            units: Config.plainUnits,
            warmupIterations: 0,
            scalingFactor: .one,
            maxDuration: .seconds(120),
            maxIterations: 5
        )
    ) { benchmark in
        for sample in benchmark.scaledIterations {
            let reportsBefore = droppedReports.current
            let (early, late, counters) = soak(seed: UInt64(sample) &* 7919 &+ 17)
            let registered = counters.registered.current
            let ran = counters.ran.current
            check(ran <= registered, "Soak: \(ran) callbacks ran for \(registered) registered")
            // A dropped promise is reported only if it was still pending when its last reference went.
            check(
                droppedReports.current - reportsBefore <= counters.dropped.current,
                "Soak: \(droppedReports.current - reportsBefore) drop reports for \(counters.dropped.current) drops")
            // Flat: the resident memory at the end is within 64 MiB of what it was after 10% of the work
            // (a leak of one 48-byte block per operation would be ~430 MiB).
            check(
                late - early < 64 << 20,
                "Soak: resident memory grew from \(early >> 20) MiB to \(late >> 20) MiB")
        }
    }
}
