import Dispatch
import Foundation
import Testing

@testable import Futures

/// Completes a promise and re-enters a future from its `deinit`: if the library released it under a lock,
/// re-entering would spin forever.
final class GReentrantOnDeinit: Sendable {
    let future: Future<Int, any Error>
    let promise: Promise<Int, any Error>
    let log: GLog<String>

    init(future: Future<Int, any Error>, promise: Promise<Int, any Error>, log: GLog<String>) {
        self.future = future
        self.promise = promise
        self.log = log
    }

    deinit {
        let log = self.log
        future.onComplete(immediateExecutionContext) { _ in log.append("registered from deinit") }
        future.requestCancellation()
        _ = future.isCompleted
        promise.trySuccess(2)
        log.append("deinit")
    }
}

extension Guarantees {
    /// G7. Nothing of yours runs or is released under a library lock: callbacks, handlers and `deinit`s may call
    /// back into the library freely.
    @Suite("G7 Nothing of yours under a library lock")
    struct G7NothingUnderALockTests {
        /// From inside a callback, drop the last reference to a promise whose `deinit` completes its future (with
        /// `brokenPromise`), whose callbacks then register on, complete and cancel the first future.
        @Test(arguments: GEntry.allCases)
        func aCallbackReleasingTheLastPromiseWhoseDeinitCompletesAnotherFuture(_ entry: GEntry) {
            let log = GLog<String>()
            gFinishes("releasing the last promise from a callback") {
                _ = gDiagnostics {
                    let first = Promise<Int, any Error>()
                    if entry == .completed { first.success(1) }
                    let holder = GHolder(Promise<Int, any Error>())
                    holder.withValue { dropped in
                        dropped.future.onComplete(immediateExecutionContext) { result in
                            log.append("dropped promise's future: \(result.failureIsBrokenPromise)")
                            first.future.onComplete(immediateExecutionContext) { _ in log.append("nested") }
                            first.trySuccess(3)
                            first.future.requestCancellation()
                        }
                    }
                    first.future.onComplete(immediateExecutionContext) { _ in
                        holder.drop()
                        log.append("callback returned")
                    }
                    first.trySuccess(1)
                }
            }
            #expect(log.values == ["dropped promise's future: true", "nested", "callback returned"])
        }

        /// A callback's captures are released after it ran; here that release runs a `deinit` that registers on,
        /// cancels and completes futures, including the one whose callback it was.
        @Test(arguments: GCase.all)
        func aDeinitRunByReleasingACallbackMayReenterTheLibrary(_ testCase: GCase) {
            let log = GLog<String>()
            let other = Promise<Int, any Error>()
            let subject = testCase.make()
            gFinishes("a deinit re-entering the library (\(testCase.testDescription))") {
                let queue = GQueue("g7.deinit")
                for context in [immediateExecutionContext, queue.context] {
                    let reentrant = GReentrantOnDeinit(
                        future: subject.cell ?? other.future, promise: other, log: log)
                    subject.onComplete(context) { _ in withExtendedLifetime(reentrant) {} }
                }
                subject.complete()
                queue.drain()
                gSpin(until: { log.values.filter { $0 == "deinit" }.count >= 2 }, step: queue.drain)
            }
            #expect(log.values.filter { $0 == "deinit" }.count == 2)
            #expect(other.future.value == 2)
        }

        /// Complete, cancel and register on a future from inside its own callbacks and cancellation handlers.
        @Test(arguments: GEntry.allCases)
        func aFuturesOwnCallbacksAndHandlersMayUseIt(_ entry: GEntry) {
            let log = GLog<String>()
            gFinishes("re-entering a future from its own callbacks and handlers") {
                _ = gDiagnostics {
                    let promise = Promise<Int, any Error>()
                    promise.onCancellationRequested {
                        log.append("handler")
                        promise.onCancellationRequested { log.append("handler registered in a handler") }
                        promise.future.requestCancellation()
                        promise.future.onComplete(immediateExecutionContext) { _ in log.append("callback from handler")
                        }
                        promise.failure(FuturesError.cancelled)
                        promise.trySuccess(9)
                    }
                    if entry == .completed { promise.failure(FuturesError.cancelled) }
                    promise.future.onComplete(immediateExecutionContext) { result in
                        log.append("callback")
                        promise.future.onComplete(immediateExecutionContext) { _ in log.append("nested callback") }
                        promise.future.requestCancellation()
                        promise.trySuccess(10)
                        _ = promise.future.forced()
                    }
                    promise.future.requestCancellation()
                }
            }
            if entry == .pendingThenCompleted {
                #expect(
                    log.values == [
                        "handler", "handler registered in a handler", "callback", "nested callback",
                        "callback from handler",
                    ])
            } else {
                #expect(log.values == ["callback", "nested callback"])
            }
        }

        /// Every face: a callback registers, completes again and waits on its own subject.
        @Test(arguments: GCase.all)
        func everyFacesCallbacksMayReenterTheirSubject(_ testCase: GCase) {
            let subject = testCase.make()
            let nested = GCounter()
            gFinishes("re-entering \(testCase.testDescription) from its callback") {
                subject.onComplete(immediateExecutionContext) { _ in
                    subject.onComplete(immediateExecutionContext) { _ in nested.increment() }
                    subject.complete()
                    _ = subject.completeAgain(99)
                    _ = subject.cell?.forced()
                }
                subject.complete()
            }
            #expect(nested.value == 1)
        }

        /// Many threads doing all of the above at once on one future: nothing deadlocks.
        @Test func reentrantCallbacksOnManyThreadsDoNotDeadlock() {
            let finished = GCounter()
            gFinishes("re-entrant callbacks on many threads") {
                for _ in 0..<50 {
                    let promise = Promise<Int, Never>()
                    DispatchQueue.concurrentPerform(iterations: 12) { index in
                        if index == 0 {
                            promise.trySuccess(1)
                            return
                        }
                        promise.future.onSuccess(immediateExecutionContext) { _ in
                            promise.future.onSuccess(immediateExecutionContext) { _ in finished.increment() }
                            promise.trySuccess(2)
                            promise.future.requestCancellation()
                        }
                    }
                }
            }
            #expect(finished.value == 50 * 11)
        }
    }
}

extension GHolder {
    /// Runs `body` with the held value, if still held.
    func withValue(_ body: (Value) -> Void) {
        if let value = peek() { body(value) }
    }
}

extension Result {
    /// Whether this is a failure with `FuturesError.brokenPromise`.
    var failureIsBrokenPromise: Bool {
        if case .failure(let error) = self { return (error as? FuturesError) == .brokenPromise }
        return false
    }
}

/// A token closed by hand, without the ``InvalidationToken`` class (no tracking): a stream drainer finds its
/// gate closed and removes the subscriber itself.
private final class GClosedGate: InvalidationTokenType, Sendable {
    let closed = GCounter()
    var isInvalid: Bool { closed.value != 0 }
    let future = Future<Never, CombinatorError<Never>>()
}

/// Something of the user's that a stream holds (captured by a handler, or inside a result) whose `deinit` uses
/// the same stream: subscribes to it, publishes on it, reads it and cancels a subscription on it. If the stream
/// released it under its lock, the `deinit` would take that lock again on the same thread and never return.
final class GStreamReentrant: Sendable {
    let promise: StreamPromise<Int>
    let released: GCounter

    init(_ promise: StreamPromise<Int>, released: GCounter) {
        self.promise = promise
        self.released = released
    }

    deinit {
        let stream = promise.stream
        let token = CancelToken()
        stream.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in }
        promise.success(-1)
        _ = stream.count
        _ = stream.isFinished
        _ = stream.cancel(token)
        released.increment()
    }
}

extension Guarantees.G7NothingUnderALockTests {
    /// A subscriber cancelled through its `CancelToken`: its handler's capture is released after unlocking.
    @Test(.hangGuard())
    func aCancelledStreamSubscribersCaptureMayUseTheStream() async {
        let promise = StreamPromise<Int>(capacity: 1)
        let released = GCounter()
        let token = CancelToken()
        do {
            let capture = GStreamReentrant(promise, released: released)
            promise.stream.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in _ = capture }
        }
        promise.success(1)
        #expect(promise.stream.cancel(token))
        #expect(released.value == 1)
        #expect(promise.stream.subscriberCountForTesting == 0)
    }

    /// A subscriber removed by invalidating its `InvalidationToken`, and one whose drainer finds its gate closed.
    @Test(.hangGuard(), arguments: [true, false])
    func anInvalidatedStreamSubscribersCaptureMayUseTheStream(_ tracked: Bool) async {
        let promise = StreamPromise<Int>(capacity: 0)
        let released = GCounter()
        let token = InvalidationToken()
        let gate = GClosedGate()
        do {
            let capture = GStreamReentrant(promise, released: released)
            let context =
                tracked ? token.validContext(immediateExecutionContext) : gate.validContext(immediateExecutionContext)
            promise.stream.onSuccess(context: context) { _ in _ = capture }
        }
        if tracked {
            token.invalidate()
        } else {
            gate.closed.increment()
            promise.success(1)
        }
        #expect(released.value == 1)
        #expect(promise.stream.subscriberCountForTesting == 0)
    }

    /// A subscriber that received the end is removed; its handler's capture is released after unlocking.
    @Test(.hangGuard(), arguments: [true, false])
    func anEndedStreamSubscribersCaptureMayUseTheStream(_ immediate: Bool) async {
        let promise = StreamPromise<Int>(capacity: 2)
        let released = GCounter()
        let queue = GQueue("g7.stream.end")
        do {
            let capture = GStreamReentrant(promise, released: released)
            promise.stream.onSuccess(context: immediate ? immediateExecutionContext : queue.context) { _ in
                _ = capture
            }
        }
        promise.success(1)
        promise.finish()
        queue.drain()
        #expect(released.value == 1)
        #expect(promise.stream.subscriberCountForTesting == 0)
    }

    /// Results a cancelled subscriber had not been handed yet (its queue was busy) are released after
    /// unlocking: in its mailbox (capacity 0), or as the replay it was owed that the history evicted meanwhile.
    @Test(.hangGuard(), arguments: [0, 1])
    func undeliveredResultsOfACancelledStreamSubscriberMayUseTheStream(_ capacity: Int) async {
        let promise = StreamPromise<GStreamReentrant>(capacity: capacity)
        let target = StreamPromise<Int>(capacity: 0)
        let released = GCounter()
        if capacity == 1 { promise.success(GStreamReentrant(target, released: released)) }
        let queue = GQueue("g7.stream.mailbox")
        queue.queue.suspend()
        let token = CancelToken()
        promise.stream.onSuccess(context: queue.context, cancelToken: token) { _ in }
        // Waits in the mailbox (capacity 0), or evicts the owed replay from the history into the subscriber's
        // slot (capacity 1; this one then stays in the history).
        promise.success(GStreamReentrant(target, released: released))
        #expect(released.value == 0)
        // The values' `deinit`s publish on `target`, whose subscriber uses `promise`'s stream.
        target.stream.onSuccess(context: immediateExecutionContext) { [weak stream = promise.stream] _ in
            _ = stream?.count
        }
        #expect(promise.stream.cancel(token))
        #expect(released.value == 1)
        queue.queue.resume()
        queue.drain()
    }

    /// A result the full history drops (capacity trimming) is released after unlocking.
    @Test(.hangGuard())
    func aResultEvictedFromAStreamsHistoryMayUseTheStream() async {
        let promise = StreamPromise<GStreamReentrant>(capacity: 1)
        let target = StreamPromise<Int>(capacity: 0)
        let released = GCounter()
        // The `deinit` of an evicted value publishes on `target`, whose subscriber publishes on `promise`'s stream.
        target.stream.onSuccess(context: immediateExecutionContext) { [weak stream = promise.stream] _ in
            _ = stream?.count
        }
        promise.success(GStreamReentrant(target, released: released))
        promise.success(GStreamReentrant(target, released: released))
        #expect(released.value == 1)
    }

    /// A `for await` consumer that goes away with results it had not taken: they and its subscription are
    /// released outside the stream's and the consumer's locks.
    @Test(.hangGuard())
    func aLeftLoopsBufferedResultsMayUseTheStream() async {
        let promise = StreamPromise<OnDeinit>(capacity: 0)
        let released = GCounter()
        do {
            let iterator = promise.stream.makeAsyncIterator()
            promise.success(
                OnDeinit { [promise] in
                    promise.stream.onSuccess(context: immediateExecutionContext) { _ in }
                    promise.success(OnDeinit {})
                    released.increment()
                })
            withExtendedLifetime(iterator) {}
        }
        #expect(released.value == 1)
    }

    /// The producer's abandon handler is released after unlocking: when the stream ends, when it is replaced,
    /// and after it ran because the last subscriber left.
    @Test(.hangGuard(), arguments: ["ended", "replaced", "abandoned"])
    func aStreamsAbandonHandlerMayUseTheStream(_ path: String) async {
        let promise = StreamPromise<Int>(capacity: 0)
        let released = GCounter()
        let ran = GCounter()
        let token = CancelToken()
        promise.stream.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in }
        do {
            let capture = GStreamReentrant(promise, released: released)
            promise.stream.whenAbandoned {
                _ = capture
                ran.increment()
            }
        }
        switch path {
        case "ended": promise.finish()
        case "replaced": promise.stream.whenAbandoned {}
        default: #expect(promise.stream.cancel(token))
        }
        #expect(released.value == 1)
        #expect(ran.value == (path == "abandoned" ? 1 : 0))
    }

    /// A dropped stream releases its history and its subscribers' handlers without holding any lock: their
    /// `deinit`s may use other streams and futures.
    @Test(.hangGuard())
    func aDroppedStreamsResultsAndHandlersMayUseTheLibrary() async {
        let target = StreamPromise<Int>(capacity: 1)
        let released = GCounter()
        let completed = Promise<Int, Never>()
        do {
            let promise = StreamPromise<OnDeinit>(capacity: 4)
            promise.success(
                OnDeinit {
                    target.success(1)
                    completed.trySuccess(1)
                    released.increment()
                })
            let capture = GStreamReentrant(target, released: released)
            promise.stream.onSuccess(context: immediateExecutionContext) { _ in _ = capture }
        }
        #expect(released.value == 2)
        #expect(completed.future.value == 1)
    }
}
