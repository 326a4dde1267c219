import Benchmark
import Dispatch
import Futures

/// W3b: combine 10,000 pending futures into one with `sequence()`, complete them (same
/// thread), read the combined result. Creating the 10,000 promises is outside the measurement.
public func registerFuturesW3b() {
    registerW3bFutures(name: "W3b.Futures", count: w3Count)

    // Same at 10× the size: W3b must be linear in n (compare its time with 10 × W3b.Futures).
    registerW3bFutures(name: "W3b100k.Futures", count: 10 * w3Count)
}

func registerW3bFutures(name: String, count: Int) {
    Benchmark(name, configuration: Config.batch()) { benchmark in
        let promises = (0..<count).map { _ in Promise<Int, Never>() }
        benchmark.startMeasurement()
        let all = promises.map(\.future).sequence()
        for (index, promise) in promises.enumerated() { promise.success(index) }
        let values = all.forced().get()
        benchmark.stopMeasurement()
        check(values.count == count && values.last == count - 1, "\(name) wrong result")
    }
}
