import Benchmark
import Dispatch
import Futures
import Synchronization

/// Number of promises in W3a and W3b.
public let w3Count = 10_000

/// W3a: 10,000 pending promises with one callback each, all completed from another thread; the
/// benchmark thread waits until every callback has run. One sample = the whole 10,000.
public func registerFuturesW3a() {
    Benchmark("W3a.Futures", configuration: Config.batch()) { benchmark in
        let promises = (0..<w3Count).map { _ in Promise<Int, Never>() }
        let ran = AtomicCounter()
        let done = DispatchSemaphore(value: 0)
        let handoff = Handoff(promises)
        benchmark.startMeasurement()
        for promise in promises {
            promise.future.onComplete(immediateExecutionContext) { _ in
                if ran.incrementAndGet() == w3Count { done.signal() }
            }
        }
        DispatchQueue.global().async {
            for promise in handoff.value { promise.success(1) }
        }
        done.wait()
        benchmark.stopMeasurement()
        check(ran.current == w3Count, "W3a.Futures lost callbacks")
    }
}
