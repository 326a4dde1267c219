import Benchmark
import Dispatch
import FuturesWorkloads
import NaiveReference

/// The naive reference (`NaiveFuture`: one `Mutex`, an array of closures) on every workload it can run,
/// exactly as the `Futures` variant of the workload does it. Not W4: it is not stack-safe.
func registerNaiveReference() {

    Benchmark("W1.Naive", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            NaiveFuture(value: 1)
                .map { $0 + 1 }
                .map { $0 + 1 }
                .map { $0 + 1 }
                .onComplete { if $0 == 4 { sum.increment() } }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1.Naive lost callbacks")
    }

    Benchmark("W1One.Naive", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            NaiveFuture(value: 1)
                .map { $0 + 1 }
                .onComplete { if $0 == 2 { sum.increment() } }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1One.Naive lost callbacks")
    }

    Benchmark("W2s.Naive", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let promise = NaiveFuture<Int>()
            promise
                .map { $0 + 1 }
                .map { $0 + 1 }
                .map { $0 + 1 }
                .onComplete { if $0 == 4 { sum.increment() } }
            promise.complete(1)
        }
        check(sum.current == benchmark.scaledIterations.count, "W2s.Naive lost callbacks")
    }

    Benchmark("W2.Naive", configuration: Config.kilo()) { benchmark in
        let queue = DispatchQueue(label: "W2.Naive")
        var sum = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let promise = NaiveFuture<Int>()
            let last = promise
                .map(on: queue) { $0 + 1 }
                .map(on: queue) { $0 + 1 }
                .map(on: queue) { $0 + 1 }
            promise.complete(1)
            sum += last.wait()
        }
        benchmark.stopMeasurement()
        check(sum == 4 * benchmark.scaledIterations.count, "W2.Naive wrong sum")
    }

    Benchmark("W2One.Naive", configuration: Config.kilo()) { benchmark in
        let queue = DispatchQueue(label: "W2One.Naive")
        var sum = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let promise = NaiveFuture<Int>()
            let last = promise.map(on: queue) { $0 + 1 }
            promise.complete(1)
            sum += last.wait()
        }
        benchmark.stopMeasurement()
        check(sum == 2 * benchmark.scaledIterations.count, "W2One.Naive wrong sum")
    }

    Benchmark("W3a.Naive", configuration: Config.batch()) { benchmark in
        let promises = (0..<w3Count).map { _ in NaiveFuture<Int>() }
        let ran = AtomicCounter()
        let done = DispatchSemaphore(value: 0)
        let handoff = Handoff(promises)
        benchmark.startMeasurement()
        for promise in promises {
            promise.onComplete { _ in
                if ran.incrementAndGet() == w3Count { done.signal() }
            }
        }
        DispatchQueue.global().async {
            for promise in handoff.value { promise.complete(1) }
        }
        done.wait()
        benchmark.stopMeasurement()
        check(ran.current == w3Count, "W3a.Naive lost callbacks")
    }

    Benchmark("W3b.Naive", configuration: Config.batch()) { benchmark in
        let promises = (0..<w3Count).map { _ in NaiveFuture<Int>() }
        benchmark.startMeasurement()
        let all = promises.naiveSequence()
        for (index, promise) in promises.enumerated() { promise.complete(index) }
        let values = all.wait()
        benchmark.stopMeasurement()
        check(values.count == w3Count && values.last == w3Count - 1, "W3b.Naive wrong result")
    }

    Benchmark("W5.Naive", configuration: Config.perMillionFutures()) { benchmark in
        var promises: [NaiveFuture<Int>] = []
        promises.reserveCapacity(benchmark.scaledIterations.count)
        let sum = AtomicCounter()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let promise = NaiveFuture<Int>()
            promise.onComplete { _ in
                if index >= 0 { sum.increment() }
            }
            promises.append(promise)
        }
        benchmark.stopMeasurement()
        for promise in promises { promise.complete(1) }
        check(sum.current == benchmark.scaledIterations.count, "W5.Naive lost callbacks")
    }

    Benchmark("W6.Naive", configuration: Config.batch()) { benchmark in
        let promises = (0..<w6Count).map { _ in NaiveFuture<Int>() }
        let ran = AtomicCounter()
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            if side == 0 {
                for promise in promises { promise.complete(1) }
            } else {
                for promise in promises {
                    promise.onComplete { _ in ran.increment() }
                }
            }
        }
        benchmark.stopMeasurement()
        check(ran.current == w6Count, "W6.Naive: \(ran.current) callbacks for \(w6Count) promises")
    }

    Benchmark("W7.Naive", configuration: Config.batch()) { benchmark in
        let promise = NaiveFuture<Int>()
        let ran = AtomicCounter()
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: w7Threads) { _ in
            for _ in 0..<w7CallbacksPerThread {
                promise.onComplete { _ in ran.increment() }
            }
        }
        promise.complete(1)
        benchmark.stopMeasurement()
        check(ran.current == w7Threads * w7CallbacksPerThread, "W7.Naive: \(ran.current) callbacks")
    }
}
