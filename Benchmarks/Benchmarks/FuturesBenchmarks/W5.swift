import Benchmark
import Futures
import FuturesWorkloads
import NIOCore
import NIOEmbedded
import OpenCombine

/// W5: 1,000,000 pending futures, each with one callback capturing two values (an index and a
/// counter); all kept alive until the end of the sample (then completed, outside the measurement).
/// Metrics per future (`*` rows): mallocs and requested bytes (`mallocBytesCount`, the sum of the
/// sizes passed to malloc, without the allocator's own per-chunk overhead).
/// Plus the cost of one `map` on the immediate context (`Map.*`: a chain of maps on a pending root;
/// `MapCompleted.*`: on a completed root).
func registerCompetitorsW5() {
    let config = Config.perMillionFutures()

    Benchmark("W5.NIO", configuration: config) { benchmark in
        let loop = EmbeddedEventLoop()
        var promises: [EventLoopPromise<Int>] = []
        promises.reserveCapacity(benchmark.scaledIterations.count)
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            promise.futureResult.whenComplete { _ in
                if index >= 0 { sum.increment() }
            }
            promises.append(promise)
        }
        benchmark.stopMeasurement()
        for promise in promises { promise.succeed(1) }
        check(sum.current == benchmark.scaledIterations.count, "W5.NIO lost callbacks")
        try? loop.syncShutdownGracefully()
    }

    Benchmark("W5.OpenCombine", configuration: config) { benchmark in
        var completers: [(Result<Int, Never>) -> Void] = []
        var cancellables: [AnyCancellable] = []
        completers.reserveCapacity(benchmark.scaledIterations.count)
        cancellables.reserveCapacity(benchmark.scaledIterations.count)
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let future = OpenCombine.Future<Int, Never> { promise in completers.append(promise) }
            cancellables.append(future.sink { _ in if index >= 0 { sum.increment() } })
        }
        benchmark.stopMeasurement()
        for complete in completers { complete(.success(1)) }
        check(sum.current == benchmark.scaledIterations.count, "W5.OpenCombine lost callbacks")
    }

    // Floor: a lock-protected cell holding one capturing closure.
    Benchmark("W5.Closure", configuration: config) { benchmark in
        var cells: [ClosureCell] = []
        cells.reserveCapacity(benchmark.scaledIterations.count)
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let cell = ClosureCell()
            cell.observe { _ in if index >= 0 { sum.increment() } }
            cells.append(cell)
        }
        benchmark.stopMeasurement()
        for cell in cells { cell.complete(1) }
        check(sum.current == benchmark.scaledIterations.count, "W5.Closure lost callbacks")
    }

    Benchmark("Map.NIO", configuration: Config.kilo([.mallocBytesCount])) { benchmark in
        let loop = EmbeddedEventLoop()
        let root = loop.makePromise(of: Int.self)
        var last = root.futureResult
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            last = last.map { $0 + 1 }
        }
        benchmark.stopMeasurement()
        root.succeed(0)
        check((try? last.wait()) == benchmark.scaledIterations.count, "Map.NIO wrong result")
        try? loop.syncShutdownGracefully()
    }

    Benchmark("MapCompleted.NIO", configuration: Config.kilo([.mallocBytesCount])) { benchmark in
        let loop = EmbeddedEventLoop()
        var last = loop.makeSucceededFuture(0)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            last = last.map { $0 + 1 }
        }
        benchmark.stopMeasurement()
        check((try? last.wait()) == benchmark.scaledIterations.count, "MapCompleted.NIO wrong result")
        try? loop.syncShutdownGracefully()
    }
}
