import Benchmark
import Dispatch
import FuturesWorkloads
import NIOCore
import NIOPosix

/// W7: eight threads register 1,000 callbacks each on one pending future, then it is completed.
func registerCompetitorsW7() {

    // NIO: registrations from foreign threads hop to the future's event loop.
    Benchmark("W7.NIO", configuration: Config.batch()) { benchmark in
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let promise = group.next().makePromise(of: Int.self)
        let ran = AtomicCounter()
        let total = w7Threads * w7CallbacksPerThread
        let done = DispatchSemaphore(value: 0)
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: w7Threads) { _ in
            for _ in 0..<w7CallbacksPerThread {
                promise.futureResult.whenComplete { _ in
                    if ran.incrementAndGet() == total { done.signal() }
                }
            }
        }
        promise.succeed(1)
        done.wait()
        benchmark.stopMeasurement()
        check(ran.current == total, "W7.NIO: \(ran.current) callbacks")
        try! group.syncShutdownGracefully()
    }
}
