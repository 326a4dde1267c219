import Bolts
import Testing

@testable import Futures

private enum LoadError: Error, Equatable {
    case offline
}

/// Runs `body` in a Swift task that is already cancelled.
private func inACancelledTask<R: Sendable>(_ body: @escaping @Sendable () async -> R) async -> R {
    await Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return await body()
    }.value
}

@Suite("BFTask: cancellation requests, waiting, observed failures")
struct BFTaskCancellationTests {
    /// A request made on a continuation before the task its block returns exists reaches that task once it
    /// does, whatever the source (here one that never reacts to requests).
    @Test func aRequestBeforeTheReturnedTaskExistsReachesIt() {
        let outer = Promise<Int, any Error>()  // no cancellation handler: nobody upstream reacts
        let producer = Promise<Int, any Error>()
        let asked = Counter()
        producer.onCancellationRequested { asked.increment() }
        let inner = producer.future
        let chain = BFTask(outer.future).continueWithTask(executor: .immediate) { _ in BFTask(inner) }.future
        chain.requestCancellation()  // before the inner task exists
        #expect(asked.value == 0)
        outer.success(1)
        #expect(asked.value == 1)
        producer.trySuccess(0)
    }

    @Test func aFaultedTaskThrowsItsErrorAndAPendingOneStopsWaitingInACancelledTask() async {
        let task = BFTask<Int>(error: LoadError.offline)
        await #expect(throws: LoadError.offline) { try await task.get(onTaskCancellation: .requestCancellation) }
        let pending = BFTaskCompletionSource<Int>()
        let stopped = await inACancelledTask { () -> (any Error)? in
            do {
                _ = try await pending.task.get(onTaskCancellation: .stopWaiting)
                return nil
            } catch {
                return error
            }
        }
        #expect(stopped is CancellationError)
        pending.set(result: 0)
    }

    /// A continuation looks at its task's failure, pending or completed, so that failure is never reported
    /// as unobserved (the core reports a failed future deallocated unobserved); a cancelled task is a
    /// cancellation, which is never reported.
    @Test func aContinuationObservesItsTasksFailure() {
        let pending = BFTaskCompletionSource<Int>()
        _ = pending.task.continueWith { _ in 0 }
        pending.set(error: LoadError.offline)
        #expect(pending.task.future.observed)
        let completed = BFTask<Int>(error: LoadError.offline)
        _ = completed.continueWith { _ in 0 }
        #expect(completed.future.observed)
        let cancelled = BFTaskCompletionSource<Int>()
        cancelled.cancel()
        #expect(cancelled.task.future.error.map(isCancellationError) == true)
    }
}
