import Benchmark
import BrightFutures
import FuturesWorkloads

/// W1 and W2s on the BrightFutures face, spelled as BrightFutures code spells them (the function contexts
/// `ImmediateExecutionContext` / `immediateExecutionContext`, `onSuccess`), registered next to the core's
/// W1 and W2s:
///   Benchmarks/run.sh 'W1\.Futures' 'W2s\.Futures' 'W1BrightFutures\..*' 'W2sBrightFutures\..*'
func registerBrightFuturesFace() {
    // W1BrightFutures: a future that already succeeded, three `map`s and one `onComplete` observer, all on
    // the face's immediate context function, one thread. Compare with `W1.Futures`.
    Benchmark("W1BrightFutures.Futures", configuration: Config.kilo()) { benchmark in
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
        check(sum.current == benchmark.scaledIterations.count, "W1BrightFutures.Futures lost callbacks")
    }

    // W2sBrightFutures: a pending promise, the same three `map`s and observer, then the promise is completed
    // on the same thread. Compare with `W2s.Futures`.
    Benchmark("W2sBrightFutures.Futures", configuration: Config.kilo()) { benchmark in
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
        check(sum.current == benchmark.scaledIterations.count, "W2sBrightFutures.Futures lost callbacks")
    }
}
