import Benchmark
import Futures

/// Issue 12's features on the hot path, switched on (their cost when off is W1 and W2s themselves):
/// - `W1Traced`: W1 inside `withFailureTracing` (every future records its call site in the side table).
/// - `W2sProgress`: W2s on a promise that declared progress, with 4 reports before it completes (each
///   report travels down the 3 derived futures).
/// - `ProgressSum`: W3b's shape (10,000 pending promises with progress, `sequence()`), one report each,
///   then completed in order.
public func registerFuturesDiagnostics() {
    Benchmark("W1Traced.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        FuturesDiagnostics.withFailureTracing {
            for _ in benchmark.scaledIterations {
                Future<Int, Never>(value: 1)
                    .map(immediateExecutionContext) { $0 + 1 }
                    .map(immediateExecutionContext) { $0 + 1 }
                    .map(immediateExecutionContext) { $0 + 1 }
                    .onComplete(immediateExecutionContext) { result in
                        if case .success(let value) = result, value == 4 { sum.increment() }
                    }
            }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1Traced.Futures lost callbacks")
    }

    Benchmark("W2sProgress.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let promise = Promise<Int, Never>(progressTotal: 4)
            promise.future
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .onComplete(immediateExecutionContext) { result in
                    if case .success(let value) = result, value == 4 { sum.increment() }
                }
            for done in 1...4 { promise.reportProgress(completed: Int64(done)) }
            promise.success(1)
        }
        check(sum.current == benchmark.scaledIterations.count, "W2sProgress.Futures lost callbacks")
    }

    Benchmark("ProgressSum.Futures", configuration: Config.batch()) { benchmark in
        let count = w3Count
        let promises = (0..<count).map { _ in Promise<Int, Never>(progressTotal: 2) }
        benchmark.startMeasurement()
        let all = promises.map(\.future).sequence()
        for promise in promises { promise.reportProgress(completed: 1) }
        for (index, promise) in promises.enumerated() { promise.success(index) }
        let values = all.forced().get()
        benchmark.stopMeasurement()
        check(values.count == count && all.progress.current.isFinished, "ProgressSum.Futures wrong result")
    }
}
