import Benchmark
import Dispatch
import FuturesWorkloads
import NIOCore
import NIOEmbedded
import NIOPosix

/// W1One and W2One (issue 10's W1 and W2): W1 and W2 with one step instead of three.
func registerCompetitorsOneStep() {

    Benchmark("W1One.NIO", configuration: Config.kilo()) { benchmark in
        let loop = EmbeddedEventLoop()
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            loop.makeSucceededFuture(1)
                .map { $0 + 1 }
                .whenComplete { result in
                    if case .success(let value) = result, value == 2 { sum.increment() }
                }
        }
        benchmark.stopMeasurement()
        check(sum.current == benchmark.scaledIterations.count, "W1One.NIO lost callbacks")
        try? loop.syncShutdownGracefully()
    }

    // Floor: W1.Closure with one step: one escaping closure called, then a callback.
    Benchmark("W1One.Closure", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let steps: [@Sendable (Int) -> Int] = [{ $0 + 1 }]
            var value = identity(1)
            for step in steps { value = step(value) }
            let observer: @Sendable (Int) -> Void = { if $0 == 2 { sum.increment() } }
            blackHole(observer)
            observer(value)
        }
        check(sum.current == benchmark.scaledIterations.count, "W1One.Closure lost callbacks")
    }

    Benchmark("W2One.NIO", configuration: Config.kilo()) { benchmark in
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        var sum = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            let last = promise.futureResult.map { $0 + 1 }
            promise.succeed(1)
            sum += try! last.wait()
        }
        benchmark.stopMeasurement()
        check(sum == 2 * benchmark.scaledIterations.count, "W2One.NIO wrong sum")
        try! group.syncShutdownGracefully()
    }

    // The async/await floor: one hop onto the serial queue through a checked continuation.
    Benchmark("W2One.AsyncAwait", configuration: Config.kilo()) { benchmark in
        let queue = DispatchQueue(label: "W2One.AsyncAwait")
        var sum = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let input = identity(1)
            sum += await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: input + 1) }
            }
        }
        benchmark.stopMeasurement()
        check(sum == 2 * benchmark.scaledIterations.count, "W2One.AsyncAwait wrong sum")
    }

    // The raw GCD floor: one `DispatchQueue.async` block, then a semaphore.
    Benchmark("W2One.Closure", configuration: Config.kilo()) { benchmark in
        let queue = DispatchQueue(label: "W2One.Closure")
        let sum = Handoff(0)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let done = DispatchSemaphore(value: 0)
            queue.async {
                sum.value += identity(1) + 1
                done.signal()
            }
            done.wait()
        }
        benchmark.stopMeasurement()
        check(sum.value == 2 * benchmark.scaledIterations.count, "W2One.Closure wrong sum")
    }
}
