import Dispatch
import Testing

@testable import Futures

private enum ReadmeError: Error, Equatable {
    case requestFailed
    case timeServiceError
}

@Suite("DispatchQueue.asyncValue / asyncResult / asyncValueAfter")
struct DispatchQueueAsyncTests {
    @Test func asyncValueRunsTheBlockOnTheQueueAndSucceedsWithItsValue() async {
        let queue = QueueName.serial("bf.asyncValue")
        let future = queue.asyncValue { (QueueName.current ?? "?") + " 42" }
        #expect(await future.get() == "bf.asyncValue 42")
    }

    @Test func asyncValueIsAsynchronous() async {
        let queue = QueueName.serial("bf.asyncValue.suspended")
        queue.suspend()
        let future = queue.asyncValue { 1 }
        #expect(!future.isCompleted)
        queue.resume()
        #expect(await future.get() == 1)
    }

    @Test func asyncResultCompletesWithTheReturnedResult() async {
        let succeeded = DispatchQueue.global().asyncResult { () -> Result<Int, ReadmeError> in .success(5) }
        let failed = DispatchQueue.global().asyncResult { () -> Result<Int, ReadmeError> in
            .failure(.timeServiceError)
        }
        #expect(await succeeded.result(ofFuture: ()) == .success(5))
        #expect(await failed.result(ofFuture: ()) == .failure(.timeServiceError))
    }

    @Test func asyncValueAfterRunsTheBlockOnTheQueueNoEarlierThanTheDeadline() async {
        let queue = QueueName.serial("bf.after")
        let deadline = DispatchTime.now() + .milliseconds(20)
        let future = queue.asyncValueAfter(deadline) { (DispatchTime.now() >= deadline, QueueName.current) }
        let (late, name) = await future.get()
        #expect(late)
        #expect(name == "bf.after")
    }
}

extension Future {
    /// Awaits the result without throwing (test helper).
    fileprivate func result(ofFuture _: Void) async -> Result<T, E> {
        await withCheckedContinuation { continuation in
            onComplete(immediateExecutionContext) { continuation.resume(returning: $0) }
        }
    }
}
