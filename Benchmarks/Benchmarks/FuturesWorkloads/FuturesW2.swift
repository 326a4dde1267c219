import Benchmark
import Dispatch
import Futures

/// W2: a pending promise, three blocks run on a serial `DispatchQueue` (NIO: on its event loop thread),
/// completed from the benchmark thread, which then blocks until the last block has run.
public func registerFuturesW2() {
    Benchmark("W2.Futures", configuration: Config.kilo()) { benchmark in
        let queue = DispatchQueue(label: "W2.Futures")
        let context = ExecutionContext(queue: queue)
        var sum = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let promise = Promise<Int, Never>()
            let last = promise.future
                .map(context) { $0 + 1 }
                .map(context) { $0 + 1 }
                .map(context) { $0 + 1 }
            promise.success(1)
            sum += last.forced().get()
        }
        benchmark.stopMeasurement()
        check(sum == 4 * benchmark.scaledIterations.count, "W2.Futures wrong sum")
    }
}

/// W2One: W2 with one block on the serial queue instead of three (one hop).
public func registerFuturesW2One() {
    Benchmark("W2One.Futures", configuration: Config.kilo()) { benchmark in
        let queue = DispatchQueue(label: "W2One.Futures")
        let context = ExecutionContext(queue: queue)
        var sum = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let promise = Promise<Int, Never>()
            let last = promise.future.map(context) { $0 + 1 }
            promise.success(1)
            sum += last.forced().get()
        }
        benchmark.stopMeasurement()
        check(sum == 2 * benchmark.scaledIterations.count, "W2One.Futures wrong sum")
    }
}
