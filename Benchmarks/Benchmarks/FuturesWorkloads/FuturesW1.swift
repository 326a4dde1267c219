import Benchmark
import Futures

/// W1: an already completed future, three `map`s, one observer; immediate context, one thread.
public func registerFuturesW1() {
    Benchmark("W1.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            Future<Int, Never>(value: 1)
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .onComplete(immediateExecutionContext) { result in
                    if case .success(let value) = result, value == 4 { sum.increment() }
                }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1.Futures lost callbacks")
    }
}

/// W1One: W1 with one `map` instead of three.
public func registerFuturesW1One() {
    Benchmark("W1One.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            Future<Int, Never>(value: 1)
                .map(immediateExecutionContext) { $0 + 1 }
                .onComplete(immediateExecutionContext) { result in
                    if case .success(let value) = result, value == 2 { sum.increment() }
                }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1One.Futures lost callbacks")
    }
}
