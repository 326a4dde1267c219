import Benchmark
import Dispatch
import Futures
import FuturesWorkloads
import NIOCore
import NIOEmbedded
import OpenCombine
import Synchronization

/// W3b: combine 10,000 pending futures into one future of all their values, complete them (same
/// thread), read the combined result. Creating the 10,000 promises is outside the measurement.
func registerCompetitorsW3b() {

    Benchmark("W3b.NIO", configuration: Config.batch()) { benchmark in
        let loop = EmbeddedEventLoop()
        let promises = (0..<w3Count).map { _ in loop.makePromise(of: Int.self) }
        benchmark.startMeasurement()
        let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
        for (index, promise) in promises.enumerated() { promise.succeed(index) }
        let values = try! all.wait()
        benchmark.stopMeasurement()
        check(values.count == w3Count && values.last == w3Count - 1, "W3b.NIO wrong result")
        try? loop.syncShutdownGracefully()
    }

    Benchmark("W3b.OpenCombine", configuration: Config.batch()) { benchmark in
        var completers: [(Result<Int, Never>) -> Void] = []
        completers.reserveCapacity(w3Count)
        let futures = (0..<w3Count).map { _ in
            OpenCombine.Future<Int, Never> { promise in completers.append(promise) }
        }
        benchmark.startMeasurement()
        var values: [Int] = []
        // OpenCombine 0.14 has no MergeMany: flatten the sequence of futures, then collect.
        let cancellable = Publishers.Sequence<[OpenCombine.Future<Int, Never>], Never>(sequence: futures)
            .flatMap { $0 }.collect().sink { values = $0 }
        for (index, complete) in completers.enumerated() { complete(.success(index)) }
        benchmark.stopMeasurement()
        blackHole(cancellable)
        check(values.count == w3Count, "W3b.OpenCombine wrong result")
    }

    // Floor for async/await: a task group of 10,000 children, collected into one array.
    Benchmark("W3b.AsyncAwait", configuration: Config.batch()) { benchmark in
        let values = await withTaskGroup(of: Int.self, returning: [Int].self) { group in
            for index in 0..<w3Count { group.addTask { index } }
            var values: [Int] = []
            values.reserveCapacity(w3Count)
            for await value in group { values.append(value) }
            return values
        }
        check(values.count == w3Count, "W3b.AsyncAwait wrong result")
    }

    // Floor (the issue's): a `DispatchGroup` entered 10,000 times, each completion storing its value and leaving.
    Benchmark("W3b.Closure", configuration: Config.batch()) { benchmark in
        let group = DispatchGroup()
        let values = Locked([Int](repeating: 0, count: w3Count))
        var completions: [@Sendable () -> Void] = []
        completions.reserveCapacity(w3Count)
        benchmark.startMeasurement()
        for index in 0..<w3Count {
            group.enter()
            completions.append {
                values.withLock { $0[index] = index }
                group.leave()
            }
        }
        for completion in completions { completion() }
        group.wait()
        benchmark.stopMeasurement()
        check(values.withLock { $0.last } == w3Count - 1, "W3b.Closure wrong result")
    }
}
