import Dispatch
import Foundation
import Testing

@testable import Futures

@Suite("A context that does not run its task: defined outcomes")
struct DroppedWorkTests {
    @Test func aCustomContextThatDropsTasksLosesOnlyItsOwnCallbackAndNothingCrashes() {
        let dropping = ExecutionContext { _ in }
        let ran = Recorder<String>()
        let promise = Promise<Int, Never>()
        promise.future.onSuccess(immediateExecutionContext) { _ in ran.append("before") }
        promise.future.onSuccess(dropping) { _ in ran.append("dropped") }
        promise.future.onSuccess(immediateExecutionContext) { _ in ran.append("behind") }
        promise.success(1)
        #expect(ran.values == ["before", "behind"], "no callback waits for one on another context")
        #expect(promise.future.value == 1)  // the future itself is completed
        #expect(promise.future.forced() == .success(1))  // waiting does not depend on callbacks
    }

    @Test func derivedFuturesOfADroppedTaskStayPendingOthersComplete() {
        let dropping = ExecutionContext { _ in }
        let source = Future<Int, Never>(value: 1)
        let earlier = source.map(immediateExecutionContext) { $0 + 1 }
        let lost = source.map(dropping) { $0 + 2 }
        #expect(earlier.value == 2)
        #expect(!lost.isCompleted)
    }

    @Test func operationQueueContextKeepsItsQueueAliveSoWorkIsNotDropped() async {
        weak var weakQueue: OperationQueue?
        let context: ExecutionContext = {
            let queue = OperationQueue()
            queue.name = "bf.released"
            weakQueue = queue
            return queue.context
        }()
        #expect(weakQueue != nil)  // the context holds it
        let ranOn = Promise<String?, Never>()
        let promise = Promise<Int, Never>()
        promise.future.onSuccess(context) { _ in ranOn.success(OperationQueue.current?.name) }
        promise.success(1)
        #expect(await ranOn.future.get() == "bf.released")
    }

    @Test func aSuspendedOperationQueueHoldsBackOnlyItsOwnCallbackUntilResumed() async {
        let queue = OperationQueue()
        queue.isSuspended = true
        let ran = Recorder<String>()
        let queuedRan = Promise<Void, Never>()
        let promise = Promise<Int, Never>()
        promise.future.onSuccess(queue.context) { _ in
            ran.append("queued")
            queuedRan.success(())
        }
        promise.future.onSuccess(immediateExecutionContext) { _ in ran.append("behind") }
        promise.success(1)
        // The callback on the immediate context does not wait for the one on the suspended queue.
        #expect(ran.values == ["behind"])
        #expect(promise.future.isCompleted)
        queue.isSuspended = false
        await queuedRan.future.get()
        #expect(ran.values == ["behind", "queued"])
    }

    @Test func aContextThatRunsATaskTwiceRunsTheCallbackOnceAndReports() {
        let twice = ExecutionContext { task in
            task()
            task()
        }
        let reports = Recorder<FuturesDiagnostic>()
        let runs = Recorder<Int>()
        FuturesDiagnostics.withHandler({ reports.append($0) }) {
            Future<Int, Never>(value: 4).onSuccess(twice) { runs.append($0) }
            let promise = Promise<Int, Never>()
            promise.future.onSuccess(twice) { runs.append($0) }
            promise.success(5)
        }
        #expect(runs.values == [4, 5])
        #expect(reports.values == [.contextRanTaskTwice, .contextRanTaskTwice])
    }
}
