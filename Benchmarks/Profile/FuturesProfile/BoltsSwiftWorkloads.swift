// W1 and W2s on the BoltsSwift face (the workloads of FuturesBenchmarks/BoltsSwiftFace.swift), in their
// own file: `import BoltsSwift` makes `Task` Bolts-Swift's in the file that imports it.
import BoltsSwift

/// W1BoltsSwift: a succeeded task, three `continueOnSuccessWith` and one `continueWith`, `.immediate`.
func boltsSwiftW1(_ count: Int) {
    for _ in 0..<count {
        Task(1)
            .continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueWith(.immediate) { task in consume(task.result ?? 0) }
    }
}

/// W2sBoltsSwift: a pending completion source, the same four continuations, then the source is set.
func boltsSwiftW2s(_ count: Int) {
    for _ in 0..<count {
        let source = TaskCompletionSource<Int>()
        source.task
            .continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueWith(.immediate) { task in consume(task.result ?? 0) }
        source.set(result: 1)
    }
}

/// A counter the last closure of a `…Counting` workload captures, as the benchmark's closures capture
/// theirs (a closure that captures something is what can cost a context box). One thread only.
final class ObserverCount: @unchecked Sendable { var n = 0 }
