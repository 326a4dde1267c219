import Benchmark
import Futures
import FuturesWorkloads
import NIOCore
import NIOEmbedded
import OpenCombine

/// W1: an already completed future, three `map`s, one observer; immediate context, one thread.
func registerCompetitorsW1() {

    Benchmark("W1.NIO", configuration: Config.kilo()) { benchmark in
        let loop = EmbeddedEventLoop()
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            loop.makeSucceededFuture(1)
                .map { $0 + 1 }
                .map { $0 + 1 }
                .map { $0 + 1 }
                .whenComplete { result in
                    if case .success(let value) = result, value == 4 { sum.increment() }
                }
        }
        benchmark.stopMeasurement()
        check(sum.current == benchmark.scaledIterations.count, "W1.NIO lost callbacks")
        try? loop.syncShutdownGracefully()
    }

    Benchmark("W1.OpenCombine", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let cancellable = OpenCombine.Future<Int, Never> { promise in promise(.success(1)) }
                .map { $0 + 1 }
                .map { $0 + 1 }
                .map { $0 + 1 }
                .sink { value in if value == 4 { sum.increment() } }
            blackHole(cancellable)
        }
        check(sum.current == benchmark.scaledIterations.count, "W1.OpenCombine lost callbacks")
    }

    // Floor: a value already delivered through a continuation, then three plain function applications.
    Benchmark("W1.AsyncAwait", configuration: Config.kilo()) { benchmark in
        var sum = 0
        for _ in benchmark.scaledIterations {
            let value = await withUnsafeContinuation { (continuation: UnsafeContinuation<Int, Never>) in
                continuation.resume(returning: 1)
            }
            sum += identity(identity(identity(value) + 1) + 1) + 1
        }
        check(sum == 4 * benchmark.scaledIterations.count, "W1.AsyncAwait wrong sum")
    }

    // Floor: three escaping closures composed and called, then a callback.
    Benchmark("W1.Closure", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let steps: [@Sendable (Int) -> Int] = [{ $0 + 1 }, { $0 + 1 }, { $0 + 1 }]
            var value = identity(1)
            for step in steps { value = step(value) }
            let observer: @Sendable (Int) -> Void = { if $0 == 4 { sum.increment() } }
            blackHole(observer)
            observer(value)
        }
        check(sum.current == benchmark.scaledIterations.count, "W1.Closure lost callbacks")
    }
}
