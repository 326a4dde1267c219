import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G1. Completes at most once: one result, kept; a second completion changes nothing and is reported.
    @Suite("G1 Completes at most once")
    struct G1CompletesOnceTests {
        /// The task has one shared result.
        static let singleResultCases = GCase.all

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
            #expect(diagnostics.isEmpty, "`trySet` reports `false`, nothing else")
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
    }
}
