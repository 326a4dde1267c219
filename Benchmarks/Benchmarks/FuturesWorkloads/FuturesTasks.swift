import Benchmark
import Bolts
import Futures

/// W1Task: W1 on the Bolts face. A task that already succeeded, three `continueOnSuccessWith` blocks and
/// one `continueWith` observer, all on the immediate executor, one thread.
public func registerFuturesW1Task() {
    Benchmark("W1Task.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let first = BFTask(result: 1)
            let second = first.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
            let third = second.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
            let fourth = third.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
            fourth.continueWith(executor: .immediate) { (task: BFTask<Int>) in
                if task.result == 4 { sum.increment() }
            }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1Task.Futures lost continuations")
    }
}

/// W2sTask: W2s on the Bolts face. A pending completion source, three `continueOnSuccessWith` blocks and
/// one `continueWith` observer on the immediate executor, then the source is set on the same thread.
public func registerFuturesW2sTask() {
    Benchmark("W2sTask.Futures", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let source = BFTaskCompletionSource<Int>()
            let second = source.task.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in
                task.result! + 1
            }
            let third = second.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
            let fourth = third.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
            fourth.continueWith(executor: .immediate) { (task: BFTask<Int>) in
                if task.result == 4 { sum.increment() }
            }
            source.set(result: 1)
        }
        check(sum.current == benchmark.scaledIterations.count, "W2sTask.Futures lost continuations")
    }
}
