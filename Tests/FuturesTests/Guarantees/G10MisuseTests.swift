import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G10. Misuse has one defined outcome (completing twice is in G1).
    @Suite("G10 Misuse has one defined outcome")
    struct G10MisuseTests {
        @Test func aDroppedPromiseThatCanSayBrokenFailsItsFutureAndIsReported() {
            let (future, diagnostics) = gDiagnosing { Promise<Int, any Error>().future }
            #expect(future.result?.failureIsBrokenPromise == true)
            #expect(diagnostics.count == 1)
            if case .promiseDropped? = diagnostics.first {} else { Issue.record("got \(diagnostics)") }
        }

        @Test func aDroppedTaskCompletionSourceFailsItsTaskAndIsReported() {
            let (task, diagnostics) = gDiagnosing { BFTaskCompletionSource<Int>().task }
            #expect(task.isCompleted)
            #expect(task.future.result?.failureIsBrokenPromise == true)
            #expect(diagnostics.count == 1)
        }

        @Test func aDroppedNeverFailingPromiseStaysPendingAndReleasesItsCallbacks() {
            let held = LockedBox<Future<Int, Never>?>(nil)
            weak var weakProbe: GProbe?
            let diagnostics = gDiagnostics {
                let probe = GProbe()
                weakProbe = probe
                let promise = Promise<Int, Never>()
                held.value = promise.future
                promise.future.onSuccess(immediateExecutionContext) { _ in withExtendedLifetime(probe) {} }
            }
            #expect(held.value?.isCompleted == false)
            #expect(diagnostics.count == 1)
            // Nobody can complete it any more: once we drop the future, its callbacks go with it.
            held.value = nil
            #expect(weakProbe == nil)
        }

        /// A dropped never-failing promise keeps its future's cancellation handlers — the producer's and those
        /// others registered — so a request made later still reaches them.
        @Test(arguments: [false, true])
        func aDroppedNeverFailingPromiseKeepsItsCancellationHandlers(requestedByConsumers: Bool) {
            let handled = GCounter()
            let (future, derived): (Future<Int, Never>, Future<Int, Never>) = gDiagnosing {
                let promise = Promise<Int, Never>()
                promise.onCancellationRequested { handled.increment() }
                promise.future.onCancellationRequested { handled.increment() }
                return (promise.future, promise.future.map(immediateExecutionContext) { $0 })
            }.0
            #expect(!future.isCompleted)
            #expect(handled.value == 0)
            if requestedByConsumers {
                derived.requestCancellation()  // the only consumer asks, through its released callback's link
            } else {
                future.requestCancellation()
            }
            #expect(future.isCancellationRequested)
            #expect(handled.value == 2, "both handlers run once on the request")
        }

        @Test func aDroppedStreamPromiseFinishesItsStream() {
            let stream: FutureStream<Int>
            let ends = GCounter()
            do {
                let promise = StreamPromise<Int>()
                stream = promise.stream
                stream.onFinish(context: immediateExecutionContext) { _ in ends.increment() }
                promise.success(1)
            }
            #expect(stream.isFinished)
            #expect(ends.value == 1)
        }

        @Test(arguments: GCase.all)
        func aContextThatRunsATaskTwiceRunsTheCallbackOnceAndReportsIt(_ testCase: GCase) {
            let subject = testCase.make()
            let twice = ExecutionContext { task in
                task()
                task()
            }
            let runs = GCounter()
            let diagnostics = gDiagnostics {
                subject.onComplete(twice) { _ in runs.increment() }
                subject.complete()
            }
            #expect(runs.value == 1)
            #expect(diagnostics.contains(.contextRanTaskTwice))
        }

        @Test(arguments: GCase.all)
        func aContextThatNeverRunsATaskLosesOnlyThatCallback(_ testCase: GCase) {
            let subject = testCase.make()
            let queue = GQueue("g10.never")
            let others = GCounter()
            subject.onComplete(queue.context) { _ in others.increment() }
            subject.onComplete(ExecutionContext { _ in }) { _ in Issue.record("a dropped task ran") }
            subject.onComplete(queue.context) { _ in others.increment() }
            subject.onComplete(immediateExecutionContext) { _ in others.increment() }
            subject.complete()
            queue.drain()
            #expect(others.value == 3)
        }

        @Test func hugeDurationsAreClampedWithoutCrashing() async {
            // Run in a child process: an overflow trap must fail this test, not end the suite.
            await #expect(processExitsWith: .success) {
                let huge = Duration.seconds(Int64.max)
                let after = Future<Void, Never>.after(huge)
                let pending = Future<Int, Never>()
                let timedOut = pending.timeout(after: huge)
                let delayed = Future<Int, Never>(value: 1).delay(for: huge)
                let retried = Future<Int, GError>.retry(3, backoff: .constant(huge)) { Future(error: .failed(0)) }
                let backoff = Future<Int, GError>.retry(
                    100, backoff: .exponential(initial: huge, multiplier: 1e300, maximum: huge)
                ) { Future(error: .failed(0)) }
                precondition(!after.isCompleted && !timedOut.isCompleted && !delayed.isCompleted)
                _ = (retried, backoff)
            }
        }

        @Test func aNegativeStreamCapacityIsAPreconditionFailure() async {
            await #expect(processExitsWith: .failure) {
                _ = StreamPromise<Int>(capacity: -1)
            }
        }

        @Test func cancellingADisposedCancellationSourceDoesNothing() {
            let source = CancellationSource()
            let ran = GCounter()
            let registration = source.token.onCancellationRequested { ran.increment() }
            source.dispose()
            source.cancel()
            #expect(ran.value == 0)
            #expect(!registration.isActive)
            source.cancel()
            #expect(ran.value == 0)
        }

        @Test func disposingARegistrationTwiceOrAfterCancellationDoesNothing() {
            let source = CancellationSource()
            let ran = GCounter()
            let registration = source.token.onCancellationRequested { ran.increment() }
            source.cancel()
            registration.dispose()
            registration.dispose()
            #expect(ran.value == 1)
        }
    }
}
