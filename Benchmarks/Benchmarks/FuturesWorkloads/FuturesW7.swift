import Benchmark
import Dispatch
import Futures

/// Threads and callbacks per thread in W7.
public let w7Threads = 8
/// Callbacks each W7 thread registers.
public let w7CallbacksPerThread = 1_000

/// W7: contention on one future. Eight threads (`concurrentPerform`) each register 1,000 immediate
/// callbacks on the same pending future at once; then it is completed and every callback must run exactly
/// once (checked). One sample = one future with 8,000 callbacks. The completion comes after the threads
/// joined, so the malloc count is deterministic (the allocation gate holds it).
public func registerFuturesW7() {
    Benchmark("W7.Futures", configuration: Config.batch()) { benchmark in
        let promise = Promise<Int, Never>()
        let future = promise.future
        let ran = AtomicCounter()
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: w7Threads) { _ in
            for _ in 0..<w7CallbacksPerThread {
                future.onComplete(immediateExecutionContext) { _ in ran.increment() }
            }
        }
        promise.success(1)
        benchmark.stopMeasurement()
        check(ran.current == w7Threads * w7CallbacksPerThread, "W7.Futures: \(ran.current) callbacks")
    }
}
