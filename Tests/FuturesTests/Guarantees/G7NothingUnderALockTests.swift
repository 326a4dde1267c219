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
                for _ in 0..<1_000 where log.values.filter({ $0 == "deinit" }).count < 2 { queue.drain() }
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
