import Benchmark
import Dispatch
import Futures
import FuturesWorkloads
import NIOCore
import NIOPosix
import OpenCombine
import Synchronization

/// W3a: 10,000 pending promises with one callback each, all completed from another thread; the
/// benchmark thread waits until every callback has run. One sample = the whole 10,000.
func registerCompetitorsW3a() {

    Benchmark("W3a.NIO", configuration: Config.batch()) { benchmark in
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let promises = (0..<w3Count).map { _ in loop.makePromise(of: Int.self) }
        let ran = AtomicCounter()
        let done = DispatchSemaphore(value: 0)
        benchmark.startMeasurement()
        for promise in promises {
            promise.futureResult.whenComplete { _ in
                if ran.incrementAndGet() == w3Count { done.signal() }
            }
        }
        loop.execute {
            for promise in promises { promise.succeed(1) }
        }
        done.wait()
        benchmark.stopMeasurement()
        check(ran.current == w3Count, "W3a.NIO lost callbacks")
        try! group.syncShutdownGracefully()
    }

    Benchmark("W3a.OpenCombine", configuration: Config.batch()) { benchmark in
        var completers: [(Result<Int, Never>) -> Void] = []
        completers.reserveCapacity(w3Count)
        let futures = (0..<w3Count).map { _ in
            OpenCombine.Future<Int, Never> { promise in completers.append(promise) }
        }
        let ran = AtomicCounter()
        let done = DispatchSemaphore(value: 0)
        let handoff = Handoff(completers)
        benchmark.startMeasurement()
        let cancellables = futures.map { future in
            future.sink { _ in
                if ran.incrementAndGet() == w3Count { done.signal() }
            }
        }
        DispatchQueue.global().async {
            for complete in handoff.value { complete(.success(1)) }
        }
        done.wait()
        benchmark.stopMeasurement()
        blackHole(cancellables)
        check(ran.current == w3Count, "W3a.OpenCombine lost callbacks")
    }

    // Floor for async/await: 10,000 child tasks each suspended on a continuation, resumed from another thread.
    Benchmark("W3a.AsyncAwait", configuration: Config.batch()) { benchmark in
        let continuations = Locked([CheckedContinuation<Int, Never>?](repeating: nil, count: w3Count))
        let stored = AtomicCounter()
        let allStored = DispatchSemaphore(value: 0)
        benchmark.startMeasurement()
        let total = await withTaskGroup(of: Int.self) { group in
            for index in 0..<w3Count {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        continuations.withLock { $0[index] = continuation }
                        if stored.incrementAndGet() == w3Count { allStored.signal() }
                    }
                }
            }
            DispatchQueue.global().async {
                allStored.wait()
                let all = continuations.withLock { $0 }
                for continuation in all { continuation!.resume(returning: 1) }
            }
            var total = 0
            for await value in group { total += value }
            return total
        }
        benchmark.stopMeasurement()
        check(total == w3Count, "W3a.AsyncAwait lost continuations")
    }

    // Floor: 10,000 lock-protected callback cells, completed from another thread.
    Benchmark("W3a.Closure", configuration: Config.batch()) { benchmark in
        let cells = (0..<w3Count).map { _ in ClosureCell() }
        let ran = AtomicCounter()
        let done = DispatchSemaphore(value: 0)
        benchmark.startMeasurement()
        for cell in cells {
            cell.observe { _ in
                if ran.incrementAndGet() == w3Count { done.signal() }
            }
        }
        DispatchQueue.global().async {
            for cell in cells { cell.complete(1) }
        }
        done.wait()
        benchmark.stopMeasurement()
        check(ran.current == w3Count, "W3a.Closure lost callbacks")
    }
}
