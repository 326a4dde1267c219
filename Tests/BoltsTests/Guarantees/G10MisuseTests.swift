import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G10. Misuse has one defined outcome (completing twice is in G1).
    @Suite("G10 Misuse has one defined outcome")
    struct G10MisuseTests {
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

        @Test func aDroppedTaskCompletionSourceFailsItsTaskAndIsReported() {
            let (task, diagnostics) = gDiagnosing { BFTaskCompletionSource<Int>().task }
            #expect(task.isCompleted)
            #expect(task.future.result?.failureIsBrokenPromise == true)
            #expect(diagnostics.count == 1)
        }
    }
}
