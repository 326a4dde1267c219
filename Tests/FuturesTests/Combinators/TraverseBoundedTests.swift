import Dispatch
import Testing

@testable import Futures

@Suite("traverse(maxConcurrent:) bounds parallelism", .hangGuard())
struct TraverseBoundedTests {
    /// Drives 1,000 items by hand: after every step exactly min(4, items left) are in flight.
    @Test func neverMoreThanNInFlightOverAThousandItems() {
        let pending = LockedBox<[Int: Promise<Int, Never>]>([:])
        let inFlight = Counter()
        let maxInFlight = LockedBox(0)
        let started = Recorder<Int>()
        let result = (0..<1_000).traverse(maxConcurrent: 4, immediateExecutionContext) { item in
            started.append(item)
            let now = inFlight.increment()
            maxInFlight.withValue { $0 = max($0, now) }
            let promise = Promise<Int, Never>()
            pending.withValue { $0[item] = promise }
            return promise.future
        }
        var seed: UInt64 = 42
        var finished = 0
        while let next = pending.withValue({ dict -> (Int, Promise<Int, Never>)? in
            guard !dict.isEmpty else { return nil }
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let keys = dict.keys.sorted()
            let key = keys[Int(seed >> 33) % keys.count]
            return (key, dict.removeValue(forKey: key)!)
        }) {
            #expect(inFlight.value == min(4, 1_000 - finished))
            inFlight.decrement()
            finished += 1
            next.1.success(next.0 * 2)
        }
        #expect(finished == 1_000)
        #expect(maxInFlight.value == 4)
        #expect(started.values == Array(0..<1_000))
        #expect(result.value == (0..<1_000).map { $0 * 2 })
    }

    @Test func neverMoreThanNInFlightWithRealConcurrency() async {
        let inFlight = Counter()
        let maxInFlight = LockedBox(0)
        let result = (0..<1_000).traverse(maxConcurrent: 4) { item in
            let now = inFlight.increment()
            maxInFlight.withValue { $0 = max($0, now) }
            let promise = Promise<Int, Never>()
            DispatchQueue.global().async {
                inFlight.decrement()
                promise.success(item + 1)
            }
            return promise.future
        }
        #expect(await result.get() == Array(1...1_000))
        #expect(maxInFlight.value <= 4 && maxInFlight.value >= 1)
    }

    @Test func aFailureStopsStartingAndCancelsTheRunning() {
        let runners = (0..<10).map { _ in CancelCountingFuture<Int, Flaky>() }
        let started = Counter()
        let result = (0..<10).traverse(maxConcurrent: 3, immediateExecutionContext) { index in
            started.increment()
            return runners[index].future
        }
        #expect(started.value == 3)
        runners[1].failure(.fatal(1))
        #expect(result.error == .fatal(1))
        #expect(runners[0].cancellations.value == 1 && runners[2].cancellations.value == 1)
        #expect(started.value == 3)
        runners[0].success(0)
        #expect(started.value == 3)
    }

    @Test func cancellingStopsStartingAndFailsWithCancelledWhenTheErrorTypeCan() {
        let runners = (0..<10).map { _ in CancelCountingFuture<Int, any Error>() }
        let started = Counter()
        let result = (0..<10).traverse(maxConcurrent: 2, immediateExecutionContext) { index in
            started.increment()
            return runners[index].future
        }
        result.requestCancellation()
        #expect(result.error as? FuturesError == .cancelled)
        #expect(runners[0].cancellations.value == 1 && runners[1].cancellations.value == 1)
        runners[0].success(0)
        #expect(started.value == 2)
    }

    /// G6: once a failure stops the traversal, `f` (and what it captured) is released although an element
    /// is still running; before, an element whose producer captured what `f` captured formed a cycle.
    @Test func aStoppedTraversalReleasesItsClosureWhileAnElementStillRuns() {
        final class Capture: Sendable {}
        let runners = (0..<5).map { _ in CancelCountingFuture<Int, Flaky>() }
        weak var weakCapture: Capture?
        let result: Future<[Int], Flaky>
        do {
            let capture = Capture()
            weakCapture = capture
            result = (0..<5).traverse(maxConcurrent: 2, immediateExecutionContext) { index in
                withExtendedLifetime(capture) { runners[index].future }
            }
        }
        #expect(weakCapture != nil, "held while the traversal may still start elements")
        runners[1].failure(.fatal(1))
        #expect(result.error == .fatal(1))
        #expect(!runners[0].future.isCompleted)
        #expect(weakCapture == nil)
        runners[0].success(0)
    }

    @Test func aFinishedTraversalReleasesItsClosure() {
        final class Capture: Sendable {}
        let promises = (0..<3).map { _ in Promise<Int, Never>() }
        weak var weakCapture: Capture?
        let result: Future<[Int], Never>
        do {
            let capture = Capture()
            weakCapture = capture
            result = (0..<3).traverse(maxConcurrent: 3, immediateExecutionContext) { index in
                withExtendedLifetime(capture) { promises[index].future }
            }
        }
        #expect(weakCapture != nil)
        for (index, promise) in promises.enumerated() { promise.success(index) }
        #expect(result.value == [0, 1, 2])
        #expect(weakCapture == nil)
    }

    @Test func emptyInputAndANonPositiveBound() {
        #expect([Int]().traverse(maxConcurrent: 4) { Future<Int, Never>(value: $0) }.value == [])
        let inFlight = Counter()
        let maxInFlight = LockedBox(0)
        let pending = LockedBox<[Promise<Int, Never>]>([])
        let result = (0..<5).traverse(maxConcurrent: 0, immediateExecutionContext) { item in
            maxInFlight.withValue { $0 = max($0, inFlight.increment()) }
            let promise = Promise<Int, Never>()
            pending.withValue { $0.append(promise) }
            return promise.future
        }
        while let next = pending.withValue({ $0.isEmpty ? nil : $0.removeFirst() }) {
            inFlight.decrement()
            next.success(1)
        }
        #expect(result.value == [1, 1, 1, 1, 1])
        #expect(maxInFlight.value == 1)
    }
}
