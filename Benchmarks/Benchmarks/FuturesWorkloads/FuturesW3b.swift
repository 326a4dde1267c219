import Benchmark
import Dispatch
import Futures
import Synchronization

/// W3b: combine 10,000 pending futures into one future of all their values, complete them (same
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
        let all = combineAll(promises.map(\.future))
        for (index, promise) in promises.enumerated() { promise.success(index) }
        let values = all.forced().get()
        benchmark.stopMeasurement()
        check(values.count == count && values.last == count - 1, "\(name) wrong result")
    }
}

/// Combines futures into one future of all their values, in order.
///
/// TEMPORARY: `sequence()` has not landed on main yet; this is a fold over callbacks with one lock, the
/// way a user would write it with the public API. Replace with `futures.sequence()` when it lands.
public func combineAll(_ futures: [Futures.Future<Int, Never>]) -> Futures.Future<[Int], Never> {
    let promise = Promise<[Int], Never>()
    let state = Locked((remaining: futures.count, values: [Int](repeating: 0, count: futures.count)))
    for (index, future) in futures.enumerated() {
        future.onComplete(immediateExecutionContext) { result in
            guard case .success(let value) = result else { return }
            let finished: [Int]? = state.withLock { state in
                state.values[index] = value
                state.remaining -= 1
                return state.remaining == 0 ? state.values : nil
            }
            if let finished { promise.success(finished) }
        }
    }
    return promise.future
}
