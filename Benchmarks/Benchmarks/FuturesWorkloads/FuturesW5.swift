import Benchmark
import Futures

/// W5: 1,000,000 pending futures, each with one callback capturing two values (an index and a
/// counter); all kept alive until the end of the sample (then completed, outside the measurement).
/// Metrics per future (`*` rows): mallocs and requested bytes (`mallocBytesCount`, the sum of the
/// sizes passed to malloc, without the allocator's own per-chunk overhead).
/// Plus the cost of one `map` on the immediate context (`Map.*`: a chain of maps on a pending root;
/// `MapCompleted.*`: on a completed root).
public func registerFuturesW5() {
    let config = Config.perMillionFutures()

    Benchmark("W5.Futures", configuration: config) { benchmark in
        var promises: [Promise<Int, Never>] = []
        promises.reserveCapacity(benchmark.scaledIterations.count)
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let promise = Promise<Int, Never>()
            promise.future.onComplete(immediateExecutionContext) { _ in
                if index >= 0 { sum.increment() }
            }
            promises.append(promise)
        }
        benchmark.stopMeasurement()
        for promise in promises { promise.success(1) }
        check(sum.current == benchmark.scaledIterations.count, "W5.Futures lost callbacks")
    }

    // The same without a Promise object: a bare pending `Future()` (which nobody can complete).
    Benchmark("W5Bare.Futures", configuration: config) { benchmark in
        var futures: [Futures.Future<Int, Never>] = []
        futures.reserveCapacity(benchmark.scaledIterations.count)
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let future = Futures.Future<Int, Never>()
            future.onComplete(immediateExecutionContext) { _ in
                if index >= 0 { sum.increment() }
            }
            futures.append(future)
        }
        benchmark.stopMeasurement()
        blackHole(futures)
    }

    // One `map` on the immediate context, per operation: a chain of 1,000 maps on a pending root
    // (each map: a new future plus its registered callback), completed at the end of the sample.
    Benchmark("Map.Futures", configuration: Config.kilo([.mallocBytesCount])) { benchmark in
        let root = Promise<Int, Never>()
        var last = root.future
        for _ in benchmark.scaledIterations {
            last = last.map(immediateExecutionContext) { $0 + 1 }
        }
        benchmark.stopMeasurement()
        root.success(0)
        check(last.value == benchmark.scaledIterations.count, "Map.Futures wrong result")
    }

    // One `map` on an already completed future (the immediate fast path).
    Benchmark("MapCompleted.Futures", configuration: Config.kilo([.mallocBytesCount])) { benchmark in
        var last = Future<Int, Never>(value: 0)
        for _ in benchmark.scaledIterations {
            last = last.map(immediateExecutionContext) { $0 + 1 }
        }
        check(last.value == benchmark.scaledIterations.count, "MapCompleted.Futures wrong result")
    }
}
