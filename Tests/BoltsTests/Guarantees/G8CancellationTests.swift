import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G8. Cancellation reaches the work, and only when nobody else waits.
    @Suite("G8 Cancellation reaches the work, and only when nobody else waits")
    struct G8CancellationTests {
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
    }
}
