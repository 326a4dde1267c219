import Benchmark
import BoltsSwift
import Futures

// W1 and W2s on the BoltsSwift face (`import BoltsSwift`: Bolts-Swift's `Task` class), to compare with
// `W1.Futures` and `W2s.Futures` (the core) in the same run. They live in this module with the core's
// workloads, so that both sides are compiled and laid out in the same context:
//   Benchmarks/run.sh 'W1\.Futures' 'W2s\.Futures' 'W1BoltsSwift\..*' 'W2sBoltsSwift\..*'
public func registerBoltsSwiftFace() {
    // W1BoltsSwift: a task that already succeeded, three `continueOnSuccessWith` and one `continueWith`
    // observer, all on `.immediate`, one thread.
    Benchmark("W1BoltsSwift.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            Task(1)
                .continueOnSuccessWith(.immediate) { $0 + 1 }
                .continueOnSuccessWith(.immediate) { $0 + 1 }
                .continueOnSuccessWith(.immediate) { $0 + 1 }
                .continueWith(.immediate) { task in
                    if task.result == 4 { sum.increment() }
                }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1BoltsSwift.Futures lost continuations")
    }

    // W2sBoltsSwift: a pending completion source, the same four continuations, then the source is set on
    // the same thread.
    Benchmark("W2sBoltsSwift.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let source = TaskCompletionSource<Int>()
            source.task
                .continueOnSuccessWith(.immediate) { $0 + 1 }
                .continueOnSuccessWith(.immediate) { $0 + 1 }
                .continueOnSuccessWith(.immediate) { $0 + 1 }
                .continueWith(.immediate) { task in
                    if task.result == 4 { sum.increment() }
                }
            source.set(result: 1)
        }
        check(sum.current == benchmark.scaledIterations.count, "W2sBoltsSwift.Futures lost continuations")
    }

    // W2sMapObserver: W2s on the core with the observer written as Bolts-Swift must write it, a fourth
    // step that returns a new (Void) future, where W2s's `onComplete` returns none. The work of
    // W2sBoltsSwift on the core, to tell the face's own cost from the cost of its API.
    Benchmark("W2sMapObserver.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let promise = Promise<Int, any Error>()
            promise.future
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { value in
                    if value == 4 { sum.increment() }
                }
            promise.success(1)
        }
        check(sum.current == benchmark.scaledIterations.count, "W2sMapObserver.Futures lost callbacks")
    }
}
