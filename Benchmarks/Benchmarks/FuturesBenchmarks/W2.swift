import Benchmark
import Dispatch
import Futures
import FuturesWorkloads
import NIOCore
import NIOPosix
import OpenCombine
import OpenCombineDispatch

/// W2: a pending promise, three blocks run on a serial `DispatchQueue` (NIO: on its event loop thread),
/// completed from the benchmark thread, which then blocks until the last block has run.
func registerCompetitorsW2() {

    Benchmark("W2.NIO", configuration: Config.kilo()) { benchmark in
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        var sum = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            let last = promise.futureResult
                .map { $0 + 1 }
                .map { $0 + 1 }
                .map { $0 + 1 }
            promise.succeed(1)
            sum += try! last.wait()
        }
        benchmark.stopMeasurement()
        check(sum == 4 * benchmark.scaledIterations.count, "W2.NIO wrong sum")
        try! group.syncShutdownGracefully()
    }

    Benchmark("W2.OpenCombine", configuration: Config.kilo()) { benchmark in
        let queue = DispatchQueue(label: "W2.OpenCombine")
        let scheduler = queue.ocombine
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let done = DispatchSemaphore(value: 0)
            var complete: ((Result<Int, Never>) -> Void)?
            let cancellable = OpenCombine.Future<Int, Never> { promise in complete = promise }
                .receive(on: scheduler).map { $0 + 1 }
                .receive(on: scheduler).map { $0 + 1 }
                .receive(on: scheduler).map { $0 + 1 }
                .sink { value in
                    if value == 4 { sum.increment() }
                    done.signal()
                }
            complete?(.success(1))
            done.wait()
            blackHole(cancellable)
        }
        benchmark.stopMeasurement()
        check(sum.current == benchmark.scaledIterations.count, "W2.OpenCombine lost callbacks")
    }

    // Floor for async/await: three hops onto the serial queue through checked continuations.
    Benchmark("W2.AsyncAwait", configuration: Config.kilo()) { benchmark in
        let queue = DispatchQueue(label: "W2.AsyncAwait")
        var sum = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var value = 1
            for _ in 0..<3 {
                let input = value
                value = await withCheckedContinuation { continuation in
                    queue.async { continuation.resume(returning: input + 1) }
                }
            }
            sum += value
        }
        benchmark.stopMeasurement()
        check(sum == 4 * benchmark.scaledIterations.count, "W2.AsyncAwait wrong sum")
    }

    // The floor of the target: a raw `DispatchQueue.async` chain of three blocks, then a semaphore.
    Benchmark("W2.Closure", configuration: Config.kilo()) { benchmark in
        let queue = DispatchQueue(label: "W2.Closure")
        let sum = Handoff(0)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let done = DispatchSemaphore(value: 0)
            queue.async {
                let a = identity(1) + 1
                queue.async {
                    let b = a + 1
                    queue.async {
                        sum.value += b + 1
                        done.signal()
                    }
                }
            }
            done.wait()
        }
        benchmark.stopMeasurement()
        check(sum.value == 4 * benchmark.scaledIterations.count, "W2.Closure wrong sum")
    }
}
