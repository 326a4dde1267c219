import Benchmark
import Dispatch
import Futures
import FuturesWorkloads
import NIOCore
import NIOPosix
import OpenCombine

/// W6: two threads race on 100,000 promises: one completes them, the other registers one callback on
/// each, both in index order and at the same time. Every callback must run exactly once (checked).
/// One sample = the whole 100,000; throughput = 100,000 / wall clock.
func registerCompetitorsW6() {

    // NIO at its best: the promises are completed on their own event loop thread (no hop), the
    // callbacks are registered from the benchmark thread (NIO hops each registration onto the loop).
    Benchmark("W6.NIO", configuration: Config.batch()) { benchmark in
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let promises = (0..<w6Count).map { _ in loop.makePromise(of: Int.self) }
        let ran = AtomicCounter()
        let done = DispatchSemaphore(value: 0)
        benchmark.startMeasurement()
        loop.execute {
            for promise in promises { promise.succeed(1) }
        }
        for promise in promises {
            promise.futureResult.whenComplete { _ in
                if ran.incrementAndGet() == w6Count { done.signal() }
            }
        }
        done.wait()
        benchmark.stopMeasurement()
        check(ran.current == w6Count, "W6.NIO: \(ran.current) callbacks for \(w6Count) promises")
        try! group.syncShutdownGracefully()
    }

    Benchmark("W6.OpenCombine", configuration: Config.batch()) { benchmark in
        var completers: [(Result<Int, Never>) -> Void] = []
        completers.reserveCapacity(w6Count)
        let futures = (0..<w6Count).map { _ in
            OpenCombine.Future<Int, Never> { promise in completers.append(promise) }
        }
        let ran = AtomicCounter()
        let cancellables = Handoff([AnyCancellable]())
        cancellables.value.reserveCapacity(w6Count)
        let handoff = Handoff(completers)
        let sources = Handoff(futures)
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            if side == 0 {
                for complete in handoff.value { complete(.success(1)) }
            } else {
                for future in sources.value {
                    cancellables.value.append(future.sink { _ in ran.increment() })
                }
            }
        }
        benchmark.stopMeasurement()
        check(ran.current == w6Count, "W6.OpenCombine: \(ran.current) callbacks for \(w6Count) futures")
    }

    // Floor: lock-protected callback cells.
    Benchmark("W6.Closure", configuration: Config.batch()) { benchmark in
        let cells = (0..<w6Count).map { _ in ClosureCell() }
        let ran = AtomicCounter()
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            if side == 0 {
                for cell in cells { cell.complete(1) }
            } else {
                for cell in cells { cell.observe { _ in ran.increment() } }
            }
        }
        benchmark.stopMeasurement()
        check(ran.current == w6Count, "W6.Closure: \(ran.current) callbacks for \(w6Count) cells")
    }
}
