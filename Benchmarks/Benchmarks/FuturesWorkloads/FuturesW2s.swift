import Benchmark
import Futures

/// W2s: a pending promise, three `map`s and an observer registered, then completed on the same thread.
public func registerFuturesW2s() {
    Benchmark("W2s.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let promise = Promise<Int, Never>()
            promise.future
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .onComplete(immediateExecutionContext) { result in
                    if case .success(let value) = result, value == 4 { sum.increment() }
                }
            promise.success(1)
        }
        check(sum.current == benchmark.scaledIterations.count, "W2s.Futures lost callbacks")
    }
}
