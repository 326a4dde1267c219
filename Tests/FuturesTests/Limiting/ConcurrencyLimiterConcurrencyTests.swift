import Dispatch
import Foundation
import Testing

@testable import Futures

/// Thousands of submissions from more threads than cores. Run under ThreadSanitizer:
/// `swift test --sanitize=thread --filter ConcurrencyLimiterConcurrency --scratch-path .build-tsan`.
@Suite("ConcurrencyLimiter under concurrency")
struct ConcurrencyLimiterConcurrencyTests {
    static let threads = 8
    static let perThread = 500

    /// Every submission of every thread runs, and never more than the bound at once: checked by the work
    /// itself at every start and end, and by the limiter's own count.
    @Test func theBoundHoldsAtEveryStep() async {
        let bound = 4
        let limiter = ConcurrencyLimiter(maxConcurrent: bound)
        let inFlight = Counter()
        let peak = Peak()
        let violations = Counter()
        let completed = Counter()
        let allDone = AsyncGate()
        let total = Self.threads * Self.perThread
        let group = DispatchGroup()
        for thread in 0..<Self.threads {
            group.enter()
            Thread {
                for index in 0..<Self.perThread {
                    let future = limiter.submit { () -> Future<Int, Never> in
                        let now = inFlight.increment()
                        if now > bound || limiter.runningCount > bound { violations.increment() }
                        peak.raise(to: now)
                        let promise = Promise<Int, Never>()
                        let complete: @Sendable () -> Void = {
                            inFlight.decrement()
                            promise.success(index)
                        }
                        // Half complete at once (a cascade on this thread), half later on another thread.
                        if (thread + index) % 2 == 0 {
                            complete()
                        } else {
                            DispatchQueue.global().async(execute: complete)
                        }
                        return promise.future
                    }
                    future.onSuccess(immediateExecutionContext) { _ in
                        if limiter.runningCount > bound { violations.increment() }
                        if completed.increment() == total { allDone.open() }
                    }
                }
                group.leave()
            }.start()
        }
        await allDone.wait()
        #expect(completed.value == total)
        #expect(violations.value == 0)
        #expect(peak.value <= bound && peak.value >= 1)
        #expect(limiter.runningCount == 0 && limiter.queuedCount == 0)
        group.wait()
    }

    /// With one slot, starts are observable in order: racing submissions (each recorded under one lock
    /// together with its submission) start exactly in the order they reached the limiter.
    @Test func queuedWorkStartsInSubmissionOrder() async {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let submissionOrder = LockedBox<[Int]>([])
        let startOrder = Recorder<Int>()
        let completed = Counter()
        let allDone = AsyncGate()
        let total = Self.threads * Self.perThread
        for thread in 0..<Self.threads {
            Thread {
                for index in 0..<Self.perThread {
                    let tag = thread * Self.perThread + index
                    submissionOrder.withValue { order in
                        order.append(tag)
                        let future = limiter.submit { () -> Future<Int, Never> in
                            startOrder.append(tag)
                            let promise = Promise<Int, Never>()
                            DispatchQueue.global().async { promise.success(tag) }
                            return promise.future
                        }
                        future.onSuccess(immediateExecutionContext) { _ in
                            if completed.increment() == total { allDone.open() }
                        }
                    }
                }
            }.start()
        }
        await allDone.wait()
        #expect(startOrder.values.count == total)
        #expect(startOrder.values == submissionOrder.value)
    }

    /// Cancelling queued items from other threads while the limiter runs: each item either ran or was
    /// removed unrun (and failed with the cancellation error), never both; the bound holds.
    @Test func cancellationsRacingWithStartsDecideEachItemOnce() async {
        let limiter = ConcurrencyLimiter(maxConcurrent: 2)
        let ran = Counter()
        let settled = Counter()
        let cancelledCount = Counter()
        let allDone = AsyncGate()
        let total = Self.threads * Self.perThread
        for _ in 0..<Self.threads {
            Thread {
                for index in 0..<Self.perThread {
                    let future = limiter.submit { () -> Future<Int, any Error> in
                        ran.increment()
                        let promise = Promise<Int, any Error>()
                        DispatchQueue.global().async { promise.success(index) }
                        return promise.future
                    }
                    future.onComplete(immediateExecutionContext) { result in
                        if case .failure = result { cancelledCount.increment() }
                        if settled.increment() == total { allDone.open() }
                    }
                    if index % 3 == 0 { future.requestCancellation() }
                }
            }.start()
        }
        await allDone.wait()
        #expect(ran.value + cancelledCount.value == total)
        #expect(limiter.runningCount == 0 && limiter.queuedCount == 0)
    }
}

/// The largest value seen, from many threads.
final class Peak: Sendable {
    private let storage = LockedBox(0)
    func raise(to candidate: Int) { storage.withValue { $0 = max($0, candidate) } }
    var value: Int { storage.value }
}
