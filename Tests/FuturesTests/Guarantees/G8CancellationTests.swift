import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

/// A producer: a promise whose cancellation handler counts the requests that reach it (and does not complete
/// it, so the tests can observe that a request alone never completes a future).
struct GProducer: Sendable {
    let promise = Promise<Int, any Error>()
    let asked = GCounter()

    init(completed: Bool = false) {
        let asked = self.asked
        promise.onCancellationRequested { asked.increment() }
        if completed { promise.success(1) }
    }

    var future: Future<Int, any Error> { promise.future }

    /// Completes the promise so that nothing is reported as dropped.
    func finish() { promise.trySuccess(0) }
}

extension Guarantees {
    /// G8. Cancellation reaches the work, and only when nobody else waits.
    @Suite("G8 Cancellation reaches the work, and only when nobody else waits")
    struct G8CancellationTests {
        @Test(arguments: GEntry.allCases)
        func aRequestRunsTheHandlersOnceWhilePendingAndNeverCompletes(_ entry: GEntry) {
            let producer = GProducer(completed: entry == .completed)
            producer.future.requestCancellation()
            producer.future.requestCancellation()
            #expect(producer.asked.value == (entry == .completed ? 0 : 1))
            #expect(producer.future.isCompleted == (entry == .completed))
            producer.finish()
        }

        @Test func aRequestOnMapThenMapErrorReachesTheProducer() {
            let producer = GProducer()
            let derived = producer.future.map(immediateExecutionContext) { $0 + 1 }.mapError(immediateExecutionContext)
            {
                _ in GError.failed(0) as any Error
            }
            derived.requestCancellation()
            #expect(producer.asked.value == 1)
            #expect(!producer.future.isCompleted)
            producer.finish()
        }

        /// Every unary combinator forwards, on a pending source.
        @Test(arguments: ["map", "mapError", "flatMap", "recover", "recoverWith", "andThen", "filter", "onQueue"])
        func aRequestTravelsUpThroughEachCombinator(_ combinator: String) {
            let producer = GProducer()
            let source = producer.future
            let immediate = immediateExecutionContext
            let derived: any GCancellable
            switch combinator {
            case "map": derived = source.map(immediate) { $0 }
            case "mapError": derived = source.mapError(immediate) { $0 }
            case "flatMap": derived = source.flatMap(immediate) { Future(value: $0) }
            case "recover": derived = source.recover(context: immediate) { _ in 0 }
            case "recoverWith": derived = source.recoverWith(context: immediate) { Future<Int, any Error>(error: $0) }
            case "andThen": derived = source.andThen(context: immediate) { _ in }
            case "filter": derived = source.filter { _ in true }
            default: derived = source.map(DispatchQueue.global().context) { $0 }
            }
            derived.requestCancellation()
            #expect(producer.asked.value == 1, "\(combinator) did not forward the request")
            producer.finish()
        }

        @Test func aSourceWithTwoDerivedFuturesIsAskedOnlyWhenBothAsked() {
            let producer = GProducer()
            let first = producer.future.map(immediateExecutionContext) { $0 }
            let second = producer.future.map(immediateExecutionContext) { $0 }
            first.requestCancellation()
            #expect(producer.asked.value == 0)
            second.requestCancellation()
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        @Test(arguments: ["callback", "queueCallback", "forcedWaiter"])
        func aPlainConsumerKeepsTheSourceFromBeingCancelled(_ consumer: String) {
            let producer = GProducer()
            let queue = GQueue("g8.consumer")
            let waiterDone = DispatchSemaphore(value: 0)
            switch consumer {
            case "callback": producer.future.onSuccess(immediateExecutionContext) { _ in }
            case "queueCallback": producer.future.onSuccess(queue.context) { _ in }
            default:
                Thread {
                    _ = producer.future.forced()
                    waiterDone.signal()
                }.start()
                gSpin { gEntries(producer.future).live >= 2 }
            }
            let derived = producer.future.map(immediateExecutionContext) { $0 }
            derived.requestCancellation()
            #expect(producer.asked.value == 0, "work shared with a \(consumer) was cancelled under it")
            producer.finish()
            if consumer == "forcedWaiter" { waiterDone.wait() }
            queue.drain()
        }

        /// `flatMap` forwards to the source while it is pending, then to the inner future; on a completed source
        /// the fast path forwards to the inner future the same way.
        @Test(arguments: GEntry.allCases)
        func flatMapForwardsToThePendingInnerFuture(_ entry: GEntry) {
            let source = GProducer(completed: entry == .completed)
            let inner = GProducer()
            let derived = source.future.flatMap(immediateExecutionContext) { _ in inner.future }
            if entry == .pendingThenCompleted {
                source.promise.success(1)
            }
            derived.requestCancellation()
            #expect(inner.asked.value == 1)
            #expect(source.asked.value == 0)
            inner.finish()
        }

        @Test func flatMapOnAPendingSourceForwardsToTheSource() {
            let source = GProducer()
            let derived = source.future.flatMap(immediateExecutionContext) { _ in Future<Int, any Error>(value: 0) }
            derived.requestCancellation()
            #expect(source.asked.value == 1)
            source.finish()
        }

        @Test(arguments: GEntry.allCases)
        func zipForwardsToAllPendingInputs(_ entry: GEntry) {
            let first = GProducer(completed: entry == .completed)
            let second = GProducer()
            first.future.zip(second.future).requestCancellation()
            #expect(first.asked.value == (entry == .completed ? 0 : 1))
            #expect(second.asked.value == 1)
            #expect(!second.future.isCompleted)
            let third = GProducer()
            let fourth = GProducer()
            third.future.zip(fourth.future).requestCancellation()
            #expect(third.asked.value == 1 && fourth.asked.value == 1)
            for producer in [first, second, third, fourth] { producer.finish() }
        }

        /// A `zip` decided by its receiver's failure counts as one consumer of `other`, whether the receiver
        /// failed before the call (the fast path) or after it: another consumer's request alone does not reach
        /// `other`.
        @Test(arguments: GEntry.allCases)
        func zipOnAFailedReceiverStillCountsAsAConsumerOfTheOtherInput(_ entry: GEntry) {
            let receiver = Promise<Int, any Error>()
            if entry == .completed { receiver.failure(GError.failed(1)) }
            let other = GProducer()
            let pair = receiver.future.zip(other.future)
            if entry == .pendingThenCompleted { receiver.failure(GError.failed(1)) }
            pair.onFailure(immediateExecutionContext) { _ in }
            other.future.map(immediateExecutionContext) { $0 }.requestCancellation()
            #expect(other.asked.value == 0, "the zip's registration on the other input was not counted")
            other.finish()
        }

        @Test(arguments: GEntry.allCases)
        func sequenceTraverseAndFoldForwardToAllPendingInputs(_ entry: GEntry) {
            let producers = (0..<5).map { GProducer(completed: entry == .completed && $0.isMultiple(of: 2)) }
            let futures = producers.map(\.future)
            futures.sequence().requestCancellation()
            let expected = producers.indices.map { entry == .completed && $0.isMultiple(of: 2) ? 0 : 1 }
            #expect(producers.map(\.asked.value) == expected)
            let more = (0..<3).map { _ in GProducer() }
            more.map(\.future).fold(immediateExecutionContext, zero: 0) { $0 + $1 }.requestCancellation()
            #expect(more.map(\.asked.value) == [1, 1, 1])
            for producer in producers + more { producer.finish() }
        }

        @Test func firstCompletedForwardsToAllPendingInputs() {
            let producers = (0..<3).map { _ in GProducer() }
            producers.map(\.future).firstCompleted().requestCancellation()
            #expect(producers.map(\.asked.value) == [1, 1, 1])
            for producer in producers { producer.finish() }
        }

        /// A request on a continuation's task reaches the task it continues.
        @Test(arguments: GEntry.allCases)
        func bfTaskContinuationsForwardTheRequest(_ entry: GEntry) {
            let source = BFTaskCompletionSource<Int>()
            let asked = GCounter()
            source.cancellationToken.onCancellationRequested { asked.increment() }
            let inner = BFTaskCompletionSource<Int>()
            let innerAsked = GCounter()
            inner.cancellationToken.onCancellationRequested { innerAsked.increment() }
            if entry == .completed { source.set(result: 1) }
            // Pending: the request goes to the source; completed: to the task the continuation returned.
            let continued = source.task.continueWithTask(executor: .immediate) { (_: BFTask<Int>) -> BFTask<Int> in
                inner.task
            }
            continued.future.requestCancellation()
            if entry == .completed {
                #expect(innerAsked.value == 1)
            } else {
                #expect(asked.value == 1)
            }
            source.trySet(result: 0)
            inner.trySet(result: 0)
        }

        /// A request on a started `Deferred` reaches the producer of its trunk, through its steps.
        @Test func aStartedDeferredForwardsTheRequestToItsTrunk() {
            let producer = GProducer()
            let started = Deferred(starting: { producer.future }).map { $0 + 1 }.mapError { $0 }.run()
            started.requestCancellation()
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        /// A request on the future of a Deferred `flatMap` reaches the inner run once it has started.
        @Test func aDeferredFlatMapForwardsToTheInnerRun() {
            let inner = GProducer()
            let started = Deferred<Int, any Error>.unit(1).flatMap { _ in Deferred(starting: { inner.future }) }.run()
            started.requestCancellation()
            #expect(inner.asked.value == 1)
            inner.finish()
        }

        /// A handler registered after the future was handed out does not see requests made earlier through
        /// derived futures (the producer must register first).
        @Test func aHandlerRegisteredLateMissesEarlierRequestsThroughDerivedFutures() {
            let promise = Promise<Int, any Error>()
            let derived = promise.future.map(immediateExecutionContext) { $0 }
            derived.requestCancellation()
            let asked = GCounter()
            promise.onCancellationRequested { asked.increment() }
            #expect(asked.value == 0)
            promise.success(1)
        }

        /// Cancelled `get(onTaskCancellation: .requestCancellation)` asks the producer.
        @Test func aCancelledTaskAwaitingWithRequestCancellationAsksTheProducer() async {
            let producer = GProducer()
            let waiting = Task { try await producer.future.get(onTaskCancellation: .requestCancellation) }
            _ = await gEventually { gEntries(producer.future).live >= 2 }
            waiting.cancel()
            let asked = await gEventually { producer.asked.value == 1 }
            #expect(asked)
            producer.promise.failure(FuturesError.cancelled)
            await #expect(throws: FuturesError.cancelled) { try await waiting.value }
        }
    }
}

/// Anything with `requestCancellation()` (futures of any type).
protocol GCancellable {
    func requestCancellation()
}

extension Future: GCancellable {}
