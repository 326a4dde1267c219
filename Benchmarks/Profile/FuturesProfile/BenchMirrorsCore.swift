// The core's side of the `…Bench` workloads (see BenchMirrors.swift).
import Futures

func coreW1Bench(_ count: Int) {
    let sum = BenchCounter()
    for _ in 0..<count {
        Future<Int, Never>(value: 1)
            .map(immediateExecutionContext) { $0 + 1 }
            .map(immediateExecutionContext) { $0 + 1 }
            .map(immediateExecutionContext) { $0 + 1 }
            .onComplete(immediateExecutionContext) { result in
                if case .success(let value) = result, value == 4 { sum.increment() }
            }
    }
    precondition(sum.current == count)
}

func coreW2sBench(_ count: Int) {
    let sum = BenchCounter()
    for _ in 0..<count {
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
    precondition(sum.current == count)
}

func coreW2sMapObserverBench(_ count: Int) {
    let sum = BenchCounter()
    for _ in 0..<count {
        let promise = Promise<Int, any Error>()
        _ = promise.future
            .map(immediateExecutionContext) { $0 + 1 }
            .map(immediateExecutionContext) { $0 + 1 }
            .map(immediateExecutionContext) { $0 + 1 }
            .map(immediateExecutionContext) { value in
                if value == 4 { sum.increment() }
            }
        promise.success(1)
    }
    precondition(sum.current == count)
}
