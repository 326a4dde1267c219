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

    /// `f` is held only while an element waits to start: released once the last one has started,
    /// while elements still run.
    @Test func theClosureIsReleasedOnceTheLastElementHasStarted() {
        final class Capture: Sendable {}
        let promises = (0..<3).map { _ in Promise<Int, Never>() }
        weak var weakCapture: Capture?
        let result: Future<[Int], Never>
        do {
            let capture = Capture()
            weakCapture = capture
            result = (0..<3).traverse(maxConcurrent: 2, immediateExecutionContext) { index in
                withExtendedLifetime(capture) { promises[index].future }
            }
        }
        #expect(weakCapture != nil, "the last element waits")
        promises[0].success(0)
        #expect(weakCapture == nil)
        #expect(!result.isCompleted)
        for (index, promise) in promises.enumerated().dropFirst() { promise.success(index) }
        #expect(result.value == [0, 1, 2])
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

    /// G8: a failure asks the running elements as one consumer each: work that someone else still waits
    /// for keeps running until that consumer asks too.
    @Test func aFailureAsksSharedWorkOnlyAsOneOfItsConsumers() {
        let shared = CancelCountingFuture<Int, Flaky>()
        let otherConsumer = shared.future.map(immediateExecutionContext) { $0 }
        let failing = Promise<Int, Flaky>()
        let result = (0..<2).traverse(maxConcurrent: 2, immediateExecutionContext) { index in
            index == 0 ? shared.future : failing.future
        }
        failing.failure(.fatal(1))
        #expect(result.error == .fatal(1))
        #expect(shared.cancellations.value == 0, "another consumer still waits")
        otherConsumer.requestCancellation()
        #expect(shared.cancellations.value == 1)
        shared.success(0)
    }

    /// A failure that arrives while the elements are being submitted (an `f` that fails at once) stops
    /// there: `f` is never called for the elements after it.
    @Test func aFailureWhileSubmittingStopsCallingF() {
        let started = Recorder<Int>()
        let pending = Promise<Int, Flaky>()
        let result = (0..<100).traverse(maxConcurrent: 10, immediateExecutionContext) { index in
            started.append(index)
            return index == 3 ? Future(error: .fatal(3)) : pending.future
        }
        #expect(result.error == .fatal(3))
        #expect(started.values == [0, 1, 2, 3])
        pending.success(0)
    }

    /// A request on the result drops the elements not started and releases `f` at once, although
    /// elements still run.
    @Test func aCancellationRequestReleasesTheClosureWhileAnElementStillRuns() {
        final class Capture: Sendable {}
        let runners = (0..<5).map { _ in Promise<Int, any Error>() }
        weak var weakCapture: Capture?
        let result: Future<[Int], any Error>
        do {
            let capture = Capture()
            weakCapture = capture
            result = (0..<5).traverse(maxConcurrent: 2, immediateExecutionContext) { index in
                withExtendedLifetime(capture) { runners[index].future }
            }
        }
        result.requestCancellation()
        #expect(result.error as? FuturesError == .cancelled)
        #expect(weakCapture == nil)
        for runner in runners { runner.success(0) }
    }

    /// When the failure type cannot hold a cancellation error, a request on the result goes to the
    /// running elements, and the traversal goes on: each element started later is asked as it starts.
    @Test func aRequestOnATraversalThatCannotFailWithCancelledAsksEveryElementAsItStarts() {
        let runners = (0..<4).map { _ in CancelCountingFuture<Int, Never>() }
        let started = Counter()
        let result = (0..<4).traverse(maxConcurrent: 2, immediateExecutionContext) { index in
            started.increment()
            return runners[index].future
        }
        result.requestCancellation()
        #expect(runners.map(\.cancellations.value) == [1, 1, 0, 0])
        runners[0].success(0)
        #expect(started.value == 3)
        #expect(runners[2].cancellations.value == 1, "asked as it starts")
        for (index, runner) in runners.enumerated().dropFirst() { runner.success(index) }
        #expect(result.value == [0, 1, 2, 3])
    }

    /// A request fails the result with the cancellation error at once, before the running elements react
    /// (here each fails with its own error as soon as it is asked).
    @Test func aRequestFailsTheResultWithCancelledBeforeTheRunningElementsReact() {
        let promises = (0..<2).map { _ in Promise<Int, any Error>() }
        for promise in promises {
            promise.future.onCancellationRequested { promise.failure(ComboError.first) }
        }
        let result = (0..<2).traverse(maxConcurrent: 2, immediateExecutionContext) { promises[$0].future }
        result.requestCancellation()
        #expect(result.error as? FuturesError == .cancelled)
        #expect(promises.allSatisfy { $0.future.error as? ComboError == .first })
    }
}
