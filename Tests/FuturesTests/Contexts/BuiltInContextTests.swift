import Dispatch
import Foundation
import Testing

@testable import Futures

@Suite("Built-in execution contexts run tasks where they say")
struct BuiltInContextTests {
    @Test func immediateOnMainRunsInlineWhenOnTheMainThread() {
        let ran = Counter()
        runImmediatelyOnMain(isMainThread: true) { ran.increment() }
        #expect(ran.value == 1)
    }

    @Test func immediateOnMainHopsToTheMainQueueFromAnotherThread() async {
        let mainQueue = QueueName.main
        _ = mainQueue
        let ranOn = Promise<String?, Never>()
        let promise = Promise<Int, Never>()
        promise.future.onSuccess(immediateOnMainExecutionContext) { _ in ranOn.success(QueueName.current) }
        DispatchQueue.global().async { promise.success(1) }
        #expect(await ranOn.future.get() == "main")
    }

    @Test @MainActor func immediateOnMainRunsInlineExactlyWhenTheMainActorIsOnTheMainThread() async {
        _ = QueueName.main
        let ran = Promise<String?, Never>()
        immediateOnMainExecutionContext { ran.success(QueueName.current) }
        // Inline on the main thread; otherwise queued behind this main-queue job, so not yet run.
        #expect(ran.future.isCompleted == Thread.isMainThread)
        #expect(await ran.future.get() == "main")
    }

    @Test func immediateOnMainRuleQueuesOnMainWhenNotOnTheMainThread() async {
        _ = QueueName.main
        let ranOn = Promise<String?, Never>()
        runImmediatelyOnMain(isMainThread: false) { ranOn.success(QueueName.current) }
        #expect(await ranOn.future.get() == "main")
    }

    @Test func immediateOnMainCanBeCalledLikeAFunction() async {
        _ = QueueName.main
        let ranOn = Promise<String?, Never>()
        immediateOnMainExecutionContext { ranOn.success(QueueName.current) }
        #expect(await ranOn.future.get() == "main")
    }

    @Test func maxStackDepthRunsTwentyNestedTasksInlineThenHopsToAGlobalQueue() async {
        let total = 25
        let caller = currentThreadID
        let returned = Counter()
        let inlineOnCaller = Counter()
        let ran = Counter()
        let done = Promise<Void, Never>()
        @Sendable func nest(_ level: Int) {
            guard level < total else { return }
            maxStackDepthExecutionContext {
                // The caller thread is busy until `nest(0)` returns, so a hopped task cannot run on it before.
                if currentThreadID == caller && returned.value == 0 { inlineOnCaller.increment() }
                if ran.increment() == total { done.success(()) }
                nest(level + 1)
            }
        }
        nest(0)
        returned.increment()
        #expect(inlineOnCaller.value == 20)
        await done.future.get()
        #expect(ran.value == total)
        #expect(inlineOnCaller.value == 20)
    }

    @Test func maxStackDepthRunsAShallowTaskInlineOnTheCallingThread() {
        let caller = currentThreadID
        let sameThread = Counter()
        maxStackDepthExecutionContext { if currentThreadID == caller { sameThread.increment() } }
        #expect(sameThread.value == 1)
    }

    @Test func dispatchQueueContextRunsCallbacksOnThatQueue() async {
        let queue = QueueName.serial("bf.dispatch")
        let ranOn = Promise<String?, Never>()
        Future<Int, Never>(value: 1).onSuccess(queue.context) { _ in ranOn.success(QueueName.current) }
        #expect(await ranOn.future.get() == "bf.dispatch")
    }

    @Test func mainQueueContextRunsCallbacksOnTheMainQueue() async {
        let ranOn = Promise<String?, Never>()
        let promise = Promise<Int, Never>()
        promise.future.onComplete(QueueName.main.context) { _ in ranOn.success(QueueName.current) }
        DispatchQueue.global().async { promise.success(1) }
        #expect(await ranOn.future.get() == "main")
    }

    @Test func operationQueueContextRunsCallbacksAsOperationsOnThatQueue() async {
        let queue = OperationQueue()
        queue.name = "bf.operations"
        let ranOn = Promise<String?, Never>()
        Future<Int, Never>(value: 1).onSuccess(queue.context) { _ in
            ranOn.success(OperationQueue.current?.name)
        }
        #expect(await ranOn.future.get() == "bf.operations")
    }

    @Test func semaphoreContextRunsInlineOnTheCallingThread() {
        let semaphore = DispatchSemaphore(value: 1)
        let caller = currentThreadID
        let sameThread = Counter()
        Future<Int, Never>(value: 1).onSuccess(semaphore.context) { _ in
            if currentThreadID == caller { sameThread.increment() }
        }
        #expect(sameThread.value == 1)
        #expect(semaphore.wait(timeout: .now()) == .success)  // signalled again after the task
        semaphore.signal()  // libdispatch traps if a semaphore is freed below its initial value
    }

    @Test func semaphoreContextWaitsForTheSemaphoreBeforeRunning() async {
        let semaphore = DispatchSemaphore(value: 1)
        semaphore.wait()  // held by the test
        let released = Counter()
        let sawRelease = Promise<Int, Never>()
        DispatchQueue.global().async {
            semaphore.context { sawRelease.success(released.value) }
        }
        released.increment()
        semaphore.signal()
        #expect(await sawRelease.future.get() == 1)
    }
}
