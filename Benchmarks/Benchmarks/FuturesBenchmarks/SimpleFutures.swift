import Benchmark
import Futures
import FuturesWorkloads
import SimpleFutures

/// W1 and W2s on the SimpleFutures face, registered next to the core's W1 and W2s.
func registerSimpleFuturesFace() {
    registerSimpleFuturesW1()
    registerSimpleFuturesW2s()
    registerUntypedCoreW1()
}

/// W1Untyped: W1 on the core with the face's error type (`Future<Int, any Error>`): what the face costs
/// beyond its untyped error. Compare with `W1Simple.Futures` and `W1.Futures`.
func registerUntypedCoreW1() {
    Benchmark("W1Untyped.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            Futures.Future<Int, any Error>(value: 1)
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .onComplete(immediateExecutionContext) { result in
                    if case .success(let value) = result, value == 4 { sum.increment() }
                }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1Untyped.Futures lost callbacks")
    }
}

/// W1Simple: W1 on the SimpleFutures face. A future that already succeeded, three `map`s and one
/// `onComplete` observer, all on the immediate context, one thread. Compare with `W1.Futures`.
func registerSimpleFuturesW1() {
    Benchmark("W1Simple.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        let immediate = SimpleFutures.ImmediateContext()
        for _ in benchmark.scaledIterations {
            SimpleFutures.Future(value: 1)
                .map(context: immediate) { $0 + 1 }
                .map(context: immediate) { $0 + 1 }
                .map(context: immediate) { $0 + 1 }
                .onComplete(context: immediate) { result in
                    if case .success(let value) = result, value == 4 { sum.increment() }
                }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1Simple.Futures lost callbacks")
    }
}

/// W2sSimple: W2s on the SimpleFutures face. A pending promise, three `map`s and one `onComplete`
/// observer on the immediate context, then the promise is completed on the same thread. Compare with
/// `W2s.Futures`.
func registerSimpleFuturesW2s() {
    Benchmark("W2sSimple.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        let immediate = SimpleFutures.ImmediateContext()
        for _ in benchmark.scaledIterations {
            let promise = SimpleFutures.Promise<Int>()
            promise.future
                .map(context: immediate) { $0 + 1 }
                .map(context: immediate) { $0 + 1 }
                .map(context: immediate) { $0 + 1 }
                .onComplete(context: immediate) { result in
                    if case .success(let value) = result, value == 4 { sum.increment() }
                }
            promise.success(1)
        }
        check(sum.current == benchmark.scaledIterations.count, "W2sSimple.Futures lost callbacks")
    }
}
