import Benchmark
import Futures
import FuturesWorkloads
import NIOCore
import NIOEmbedded
import OpenCombine

/// W2s: a pending promise, three `map`s and an observer registered, then completed on the same thread.
func registerCompetitorsW2s() {

    Benchmark("W2s.NIO", configuration: Config.kilo()) { benchmark in
        let loop = EmbeddedEventLoop()
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            promise.futureResult
                .map { $0 + 1 }
                .map { $0 + 1 }
                .map { $0 + 1 }
                .whenComplete { result in
                    if case .success(let value) = result, value == 4 { sum.increment() }
                }
            promise.succeed(1)
        }
        benchmark.stopMeasurement()
        check(sum.current == benchmark.scaledIterations.count, "W2s.NIO lost callbacks")
        try? loop.syncShutdownGracefully()
    }

    Benchmark("W2s.OpenCombine", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            var complete: ((Result<Int, Never>) -> Void)?
            let cancellable = OpenCombine.Future<Int, Never> { promise in complete = promise }
                .map { $0 + 1 }
                .map { $0 + 1 }
                .map { $0 + 1 }
                .sink { value in if value == 4 { sum.increment() } }
            complete?(.success(1))
            blackHole(cancellable)
        }
        check(sum.current == benchmark.scaledIterations.count, "W2s.OpenCombine lost callbacks")
    }

    // Floor: a pending cell (lock + optional callback) with the three steps fused into its callback.
    Benchmark("W2s.Closure", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let cell = ClosureCell()
            cell.observe { value in
                if identity(identity(identity(value) + 1) + 1) + 1 == 4 { sum.increment() }
            }
            cell.complete(1)
        }
        check(sum.current == benchmark.scaledIterations.count, "W2s.Closure lost callbacks")
    }
}
