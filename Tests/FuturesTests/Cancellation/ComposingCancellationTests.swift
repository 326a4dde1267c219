import Clocks
import Foundation
import Synchronization
import Testing

@testable import Futures

/// What users compose cancellation with: a handle per consumer, watching without consuming, leaving a
/// wait in one call, and a timeout that asks before it completes.
@Suite("Composing cancellation")
struct ComposingCancellationTests {
    // MARK: - timeout asks first

    @Test(.hangGuard())
    func aTimeoutAsksItsInputBeforeItFails() async {
        let log = EventLog()
        let promise = Promise<Int, any Error>()
        promise.onCancellationRequested { log.append("asked") }
        let clock = TestClock()
        let limited = promise.future.timeout(after: .seconds(1), clock: clock)
        limited.onComplete(immediateExecutionContext) { _ in log.append("timed out") }
        await clock.advance(by: .seconds(1))
        _ = try? await limited.get()
        #expect(log.events == ["asked", "timed out"])
        promise.trySuccess(0)
    }

    /// A `recoverWith` that reacts to the timeout by registering a new consumer of the same work must not
    /// keep the timed-out work alive: the ask arrived before it ran.
    @Test(.hangGuard())
    func aRecoveryThatReusesTheWorkDoesNotShieldItFromTheTimeout() async {
        let asked = Atomic<Int>(0)
        let promise = Promise<Int, any Error>()
        promise.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        let work = promise.future
        let clock = TestClock()
        let limited = work.timeout(after: .seconds(1), clock: clock)
        _ = limited.recoverWith(context: immediateExecutionContext) { _ in
            work.map(immediateExecutionContext) { $0 }  // a fallback that also waits for the work
        }
        await clock.advance(by: .seconds(1))
        _ = try? await limited.get()  // the work was asked before the timeout completed
        #expect(asked.load(ordering: .relaxed) == 1)
        promise.trySuccess(0)
    }

    /// Work that fails at once when asked must not replace the timeout's own outcome.
    @Test(.hangGuard())
    func aTimeoutFailsWithTimedOutEvenWhenItsInputFailsAsItIsAsked() async {
        let promise = Promise<Int, any Error>()
        promise.onCancellationRequested { promise.tryFailure(FuturesError.cancelled) }
        let clock = TestClock()
        let limited = promise.future.timeout(after: .seconds(1), clock: clock)
        await clock.advance(by: .seconds(1))
        do {
            _ = try await limited.get()
            Issue.record("succeeded")
        } catch {
            #expect((error as? FuturesError) == .timedOut)
        }
    }

    // MARK: - race and firstCompleted ask their losers first

    @Test(arguments: ["race", "firstCompleted(cancellingOthers:)"])
    func theLosersAreAskedBeforeTheWinnerIsDelivered(_ form: String) {
        let log = EventLog()
        let winner = Promise<Int, any Error>()
        let loser = Promise<Int, any Error>()
        // A loser that fails at once when asked: it must not take the winner's place either.
        loser.onCancellationRequested {
            log.append("loser asked")
            loser.tryFailure(FuturesError.cancelled)
        }
        let first =
            form == "race"
            ? Future.race(winner.future, loser.future)
            : [winner.future, loser.future].firstCompleted(cancellingOthers: true)
        first.onComplete(immediateExecutionContext) { result in
            log.append("delivered \((try? result.get()).map(String.init) ?? "a failure")")
        }
        winner.success(7)
        #expect(log.events == ["loser asked", "delivered 7"])
    }

    // MARK: - consumer()

    @Test
    func eachConsumerHandleIsOneConsumer() {
        let asked = Atomic<Int>(0)
        let promise = Promise<Int, any Error>()
        promise.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        let first = promise.future.consumer()
        let second = promise.future.consumer()
        first.requestCancellation()
        first.requestCancellation()  // one consumer asks once
        #expect(asked.load(ordering: .relaxed) == 0)
        second.requestCancellation()
        #expect(asked.load(ordering: .relaxed) == 1)
        promise.trySuccess(0)
    }

    @Test
    func aConsumerOfACompletedFutureHasItsResult() {
        let shared = Future<Int, any Error>(value: 3)
        #expect(shared.consumer().value == 3)
    }

    // MARK: - observe

    @Test
    func anObserverDoesNotHoldBackARequest() {
        let asked = Atomic<Int>(0)
        let promise = Promise<Int, any Error>()
        promise.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        let seen = Atomic<Int>(0)
        promise.future.observe(immediateExecutionContext) { result in
            if case .failure = result { seen.add(1, ordering: .relaxed) }
        }
        let mine = promise.future.consumer()
        mine.requestCancellation()
        #expect(asked.load(ordering: .relaxed) == 1)
        promise.tryFailure(FuturesError.cancelled)
        #expect(seen.load(ordering: .relaxed) == 1)
    }

    @Test
    func aCallbackHoldsBackARequestWhereAnObserverDoesNot() {
        let asked = Atomic<Int>(0)
        let promise = Promise<Int, any Error>()
        promise.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        promise.future.onComplete(immediateExecutionContext) { _ in }
        promise.future.consumer().requestCancellation()
        #expect(asked.load(ordering: .relaxed) == 0)
        promise.trySuccess(0)
    }

    @Test(.hangGuard(), arguments: [false, true])
    func anObserverRunsOnItsContextWithTheResult(_ completedFirst: Bool) async {
        let promise = Promise<Int, Never>()
        if completedFirst { promise.success(4) }
        let queue = DispatchQueue(label: "observer")
        let value = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            promise.future.observe(queue.context) { result in
                dispatchPrecondition(condition: .onQueue(queue))
                continuation.resume(returning: result.get())
            }
            if !completedFirst { promise.success(4) }
        }
        #expect(value == 4)
    }

    @Test
    func anObserverIsReleasedOnceItRan() {
        weak var weakCapture: Capture?
        let promise = Promise<Int, Never>()
        do {
            let capture = Capture()
            weakCapture = capture
            promise.future.observe(immediateExecutionContext) { _ in _ = capture }
        }
        #expect(weakCapture != nil)
        promise.success(1)
        #expect(weakCapture == nil)
    }

    // MARK: - get(onTaskCancellation: .leave)

    /// A waiter in a task on `producer`'s future, with `others` other consumers beside it; the task is
    /// cancelled once the waiter is registered, and must throw `CancellationError`.
    private func cancelAWaiter(
        on producer: GProducer, besides others: Int, policy: TaskCancellationPolicy<any Error, any Error>,
        beforeCancelling: () -> Void = {}
    ) async {
        let future = producer.future
        let waiting = Task { try await future.get(onTaskCancellation: policy) }
        await waitUntil { future.consumerCountForTesting == others + 1 }
        beforeCancelling()
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test(.hangGuard())
    func theLastWaiterThatLeavesAsksTheWork() async {
        let producer = GProducer()
        await cancelAWaiter(on: producer, besides: 0, policy: .leave)
        #expect(producer.asked.value == 1)
        producer.finish()
    }

    @Test(.hangGuard())
    func aWaiterThatLeavesSharedWorkDoesNotAskIt() async {
        let producer = GProducer()
        let other = producer.future.map(immediateExecutionContext) { $0 }
        await cancelAWaiter(on: producer, besides: 1, policy: .leave)
        #expect(producer.asked.value == 0)
        producer.promise.success(2)
        #expect(other.value == 2)
    }

    @Test(.hangGuard())
    func aWaiterThatLeavesAfterTheOthersAskedCompletesTheRequest() async {
        let producer = GProducer()
        let other = producer.future.consumer()
        await cancelAWaiter(on: producer, besides: 1, policy: .leave) {
            other.requestCancellation()
            #expect(producer.asked.value == 0)
        }
        #expect(producer.asked.value == 1)
        producer.finish()
    }

    @Test(.hangGuard())
    func aTaskCancelledBeforeItWaitsLeavesAtOnce() async {
        let producer = GProducer()
        let future = producer.future
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await future.get(onTaskCancellation: .leave)
        }
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(producer.asked.value == 1)
        producer.finish()
    }

    @Test(.hangGuard())
    func stopWaitingWithdrawsNothing() async {
        let producer = GProducer()
        await cancelAWaiter(on: producer, besides: 0, policy: .stopWaiting)
        #expect(producer.asked.value == 0)
        producer.finish()
    }

    @Test(.hangGuard())
    func leaveOnAFutureThatCannotFailThrowsOnlyCancellation() async {
        let promise = Promise<Int, Never>()
        let future = promise.future
        let waiting = Task { () async throws(CancellationError) -> Int in
            try await future.get(onTaskCancellation: .leave)
        }
        await waitUntil { future.consumerCountForTesting == 1 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        promise.success(0)
    }
}

/// Events in the order they happened, from any thread.
private final class EventLog: Sendable {
    private let box = Mutex<[String]>([])
    func append(_ event: String) { box.withLock { $0.append(event) } }
    var events: [String] { box.withLock { $0 } }
}

private final class Capture: Sendable {}

/// Yields until `condition` holds: for a state another task reaches without telling (a waiter registered).
private func waitUntil(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
}

/// A request made on a future that will follow an inner one, before the inner future exists, reaches the
/// inner future once it does, whatever the outer source (here one that never reacts to requests).
@Suite("Requests reach inner futures made later")
struct InnerFutureRequestTests {
    @Test(arguments: [
        "flatMap", "recoverWith", "flatten", "SimpleFutures flatMap", "Deferred flatMap",
    ])
    func aRequestBeforeTheInnerFutureExistsReachesIt(_ form: String) {
        let outer = Promise<Int, any Error>()  // no cancellation handler: nobody upstream reacts
        let producer = GProducer()
        let inner = producer.future
        let immediate = immediateExecutionContext
        let chain: Future<Int, any Error>
        switch form {
        case "flatMap": chain = outer.future.flatMap(immediate) { _ in inner }
        case "recoverWith":
            chain = outer.future.recoverWith(context: immediate) { _ in inner }
        case "flatten": chain = outer.future.map(immediate) { _ in inner }.flatten()
        case "SimpleFutures flatMap":
            chain = outer.future.flatMap(context: immediate, mapping: { (_: Int) throws in inner })
        default:
            chain = Deferred(starting: { outer.future }).flatMap { _ in Deferred(starting: { inner }) }.run()
        }
        chain.requestCancellation()  // before the inner future exists
        #expect(producer.asked.value == 0)
        if form == "recoverWith" { outer.failure(GError.failed(0)) } else { outer.success(1) }
        #expect(producer.asked.value == 1)
        producer.finish()
    }
}
