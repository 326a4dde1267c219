import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G1. Completes at most once: one result, kept; a second completion changes nothing and is reported.
    @Suite("G1 Completes at most once")
    struct G1CompletesOnceTests {
        /// The faces with one shared result (a stream publishes many values: see the stream test below).
        static let singleResultCases = GCase.cases([.future, .promise, .bfTask, .deferredRun])

        @Test(arguments: singleResultCases)
        func aSecondCompletionChangesNothing(_ testCase: GCase) {
            let subject = testCase.make(value: 1)
            let seen = GLog<Result<Int, any Error>>()
            subject.onComplete(immediateExecutionContext) { seen.append($0) }
            subject.complete()
            let diagnostics = gDiagnostics {
                let accepted = subject.completeAgain(2)
                // `try…` forms report `false`; forms without one are ignored and reported (below).
                #expect(accepted != true)
            }
            subject.onComplete(immediateExecutionContext) { seen.append($0) }
            #expect(seen.values.map { try? $0.get() } == [1, 1])
            #expect(subject.cell?.value == 1)
            if testCase.face == .future && testCase.entry == .pendingThenCompleted {
                // The resolver's `complete` has no `try` form: the second call is reported.
                #expect(diagnostics.count == 1)
                if case .futureCompletedTwice? = diagnostics.first {} else { Issue.record("got \(diagnostics)") }
            } else {
                #expect(diagnostics.isEmpty)
            }
        }

        @Test(arguments: GEntry.allCases)
        func aPromiseCompletedTwiceKeepsTheFirstResultAndReportsIt(_ entry: GEntry) {
            let promise = Promise<Int, GError>()
            if entry == .completed { promise.success(1) }
            let seen = GLog<Int>()
            promise.future.onSuccess(immediateExecutionContext) { seen.append($0) }
            let diagnostics = gDiagnostics {
                if entry == .pendingThenCompleted { promise.success(1) }
                promise.failure(.failed(2))
                #expect(!promise.trySuccess(3))
                #expect(!promise.tryFailure(.failed(4)))
                #expect(!promise.tryComplete(.success(5)))
            }
            #expect(promise.future.value == 1)
            #expect(seen.values == [1])
            #expect(diagnostics.count == 1)
            if case .promiseCompletedTwice? = diagnostics.first {} else { Issue.record("got \(diagnostics)") }
        }

        @Test(arguments: GEntry.allCases)
        func aTaskCompletionSourceSetTwiceKeepsTheFirstResultAndReportsIt(_ entry: GEntry) {
            let source = BFTaskCompletionSource<Int>()
            if entry == .completed { source.set(result: 1) }
            let seen = GCounter()
            source.task.continueWith(executor: .immediate) { (_: BFTask<Int>) -> Void in seen.increment() }
            let diagnostics = gDiagnostics {
                if entry == .pendingThenCompleted { source.set(result: 1) }
                source.set(error: GError.failed(2))
                source.cancel()
                #expect(!source.trySet(result: 3))
                #expect(!source.trySet(error: GError.failed(4)))
                #expect(!source.trySetCancelled())
            }
            #expect(source.task.result == 1)
            #expect(!source.task.isCancelled && !source.task.isFaulted)
            #expect(seen.value == 1)
            #expect(diagnostics.count == 2)
            #expect(
                diagnostics.allSatisfy {
                    if case .promiseCompletedTwice = $0 { return true }
                    return false
                })
        }

        @Test func aDeferredTrunkCompletingTwiceIsReportedAndIgnored() {
            let deferred = Deferred<Int, GError> { complete in
                complete(.success(1))
                complete(.success(2))
            }
            let log = GLog<FuturesDiagnostic>()
            let future = FuturesDiagnostics.withHandler({ log.append($0) }) { deferred.map { $0 }.run() }
            #expect(future.value == 1)
            #expect(log.values.count == 1)
            if case .futureCompletedTwice? = log.values.first {} else { Issue.record("got \(log.values)") }
        }

        @Test func aStreamKeepsItsEndAndPublishesNothingAfterIt() {
            // A stream publishes many results; what completes once is its end.
            let promise = StreamPromise<Int>()
            let seen = GLog<Int>()
            let ends = GCounter()
            promise.stream.onSuccess(context: immediateExecutionContext) { seen.append($0) }
            promise.stream.onFinish(context: immediateExecutionContext) { _ in ends.increment() }
            promise.success(1)
            promise.finish()
            #expect(!promise.tryComplete(.success(2)))
            promise.finish(throwing: GError.failed(3))
            #expect(seen.values == [1])
            #expect(ends.value == 1)
            #expect(promise.stream.count == 1 && promise.stream.isFinished)
        }

        @Test func racingCompletersOnManyThreadsHaveExactlyOneWinner() {
            for _ in 0..<200 {
                let promise = Promise<Int, Never>()
                let seen = GLog<Int>()
                promise.future.onSuccess(immediateExecutionContext) { seen.append($0) }
                let winners = GLog<Int>()
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    if promise.trySuccess(index) { winners.append(index) }
                }
                #expect(winners.values.count == 1)
                #expect(seen.values == winners.values)
                #expect(promise.future.value == winners.values.first)
            }
        }
    }
}
