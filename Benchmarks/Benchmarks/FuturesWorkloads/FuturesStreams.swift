import Benchmark
import Futures
import SimpleFutures

/// Streams (issue 4): values per second through `map` + `withFilter` to one subscriber and to eight,
/// and memory of a long-lived stream (peak resident memory after 1,000,000 and 10,000,000 values
/// through a stream of capacity 16: equal peaks mean memory stays flat).
/// One operation = one value pushed by `StreamPromise.success`; everything on the immediate context. The
/// callbacks and combinators are SimpleFutures' (the `SimpleFutures` module spells them over the core's stream).
public func registerFuturesStreams() {
    Benchmark("Streams.Map1.Futures", configuration: Config.kilo(tolerancePercent: 100)) { benchmark in
        let received = streamPipeline(subscribers: 1, count: benchmark.scaledIterations.count) { push in
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { push(value) }
            benchmark.stopMeasurement()
        }
        check(received == benchmark.scaledIterations.count / 2, "Streams.Map1.Futures lost values")
    }

    Benchmark("Streams.Map8.Futures", configuration: Config.kilo(tolerancePercent: 100)) { benchmark in
        let received = streamPipeline(subscribers: 8, count: benchmark.scaledIterations.count) { push in
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { push(value) }
            benchmark.stopMeasurement()
        }
        check(received == 8 * (benchmark.scaledIterations.count / 2), "Streams.Map8.Futures lost values")
    }

    // Slow (seconds per sample) and about memory, not allocation counts: not part of the allocation gate.
    if Config.allocationGate { return }
    for (name, count) in [("Streams.Memory1M.Futures", 1_000_000), ("Streams.Memory10M.Futures", 10_000_000)] {
        let config = Config.batch([.peakMemoryResident], maxDuration: .seconds(1), maxIterations: 1, warmup: 0)
        Benchmark(name, configuration: config) { benchmark in
            let received = streamPipeline(subscribers: 1, count: count) { push in
                for value in 0..<count { push(value) }
            }
            check(received == count / 2, "\(name) lost values")
        }
    }
}

/// Builds promise → map(+1) → withFilter(even) → `subscribers` × onSuccess, runs `body` with a function
/// that pushes one value, and returns how many values the subscribers received in all.
private func streamPipeline(subscribers: Int, count: Int, _ body: ((Int) -> Void) -> Void) -> Int {
    let promise = Futures.StreamPromise<Int>(capacity: 16)
    let received = AtomicCounter()
    let filtered = SimpleFutures.FutureStream(promise.stream)
        .map(context: immediateExecutionContext) { $0 + 1 }
        .withFilter(context: immediateExecutionContext) { $0 % 2 == 0 }
    for _ in 0..<subscribers {
        filtered.onSuccess(context: immediateExecutionContext) { _ in received.increment() }
    }
    body { promise.success($0) }
    promise.finish()
    return received.current
}
