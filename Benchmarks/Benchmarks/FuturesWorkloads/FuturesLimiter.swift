import Benchmark
import Dispatch
import Futures

/// Limiter: 10,000 pieces of work through one `ConcurrencyLimiter(maxConcurrent: 8)` (an API client's
/// hot path: submit, wait for a slot, start, complete). Each work future is a promise the benchmark
/// completes in submission order, so every completion starts the next queued item.
/// Settled: 10,000 pending futures combined with `settled()` (W3b's shape, never failing), then
/// completed in order.
public func registerFuturesLimiter() {
    Benchmark("Limiter.Futures", configuration: Config.batch()) { benchmark in
        let count = w3Count
        let promises = (0..<count).map { _ in Promise<Int, Never>() }
        benchmark.startMeasurement()
        let limiter = ConcurrencyLimiter(maxConcurrent: 8)
        let futures = promises.map { promise in limiter.submit { promise.future } }
        for (index, promise) in promises.enumerated() { promise.success(index) }
        let last = try? futures[count - 1].forced().get()
        benchmark.stopMeasurement()
        check(last == count - 1 && limiter.runningCount == 0, "Limiter.Futures wrong result")
    }

    Benchmark("Settled.Futures", configuration: Config.batch()) { benchmark in
        let count = w3Count
        let promises = (0..<count).map { _ in Promise<Int, Never>() }
        benchmark.startMeasurement()
        let all = promises.map(\.future).settled()
        for (index, promise) in promises.enumerated() { promise.success(index) }
        let outcomes = all.forced().get()
        benchmark.stopMeasurement()
        check(outcomes.count == count, "Settled.Futures wrong result")
    }
}
