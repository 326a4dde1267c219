import Benchmark
import Dispatch
import Futures

/// Number of promises in W6.
public let w6Count = 100_000

/// W6: two threads race on 100,000 promises: one completes them, the other registers one callback on
/// each, both in index order and at the same time. Every callback must run exactly once (checked).
/// One sample = the whole 100,000; throughput = 100,000 / wall clock.
public func registerFuturesW6() {
    // The gate tolerance is wide here: the whole sample makes only a handful of mallocs (thread
    // start-up noise moves it by one or two), while one malloc more per promise would add 100,000.
    Benchmark("W6.Futures", configuration: Config.batch(tolerancePercent: 1_000)) { benchmark in
        let promises = (0..<w6Count).map { _ in Promise<Int, Never>() }
        let ran = AtomicCounter()
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            if side == 0 {
                for promise in promises { promise.success(1) }
            } else {
                for promise in promises {
                    promise.future.onComplete(immediateExecutionContext) { _ in ran.increment() }
                }
            }
        }
        benchmark.stopMeasurement()
        check(ran.current == w6Count, "W6.Futures: \(ran.current) callbacks for \(w6Count) promises")
    }
}
