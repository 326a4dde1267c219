// The BoltsSwift side of the `…Bench` workloads (see BenchMirrors.swift).
import BoltsSwift

func boltsSwiftW1Bench(_ count: Int) {
    let sum = BenchCounter()
    for _ in 0..<count {
        Task(1)
            .continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueWith(.immediate) { task in
                if task.result == 4 { sum.increment() }
            }
    }
    precondition(sum.current == count)
}

func boltsSwiftW2sBench(_ count: Int) {
    let sum = BenchCounter()
    for _ in 0..<count {
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
    precondition(sum.current == count)
}
