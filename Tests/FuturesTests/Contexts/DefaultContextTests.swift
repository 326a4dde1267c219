import Dispatch
import Foundation
import Testing

@testable import Futures

@Suite("defaultContext(): BrightFutures' rule, process-wide and task-local overrides", .serialized)
struct DefaultContextTests {
    @Test func theRuleGivesTheMainQueueForTheMainThread() {
        guard case .queue(let queue) = DefaultExecutionContext.threadingModel(isMainThread: true).kind else {
            Issue.record("not a queue context")
            return
        }
        #expect(queue.label == DispatchQueue.main.label)
    }

    @Test func theRuleGivesAGlobalQueueForAnyOtherThread() {
        guard case .queue(let queue) = DefaultExecutionContext.threadingModel(isMainThread: false).kind else {
            Issue.record("not a queue context")
            return
        }
        #expect(queue.label == DispatchQueue.global().label)
        #expect(queue.label != DispatchQueue.main.label)
    }

    @Test @MainActor func onTheMainActorTheDefaultFollowsTheRealThread() {
        // On Apple platforms the main actor runs on the main thread; on Linux under `swift test` the main
        // queue is drained by a worker thread. Either way the rule must match `Thread.isMainThread`.
        let onMainThread = Thread.isMainThread
        guard case .queue(let queue) = defaultContext().kind else {
            Issue.record("not a queue context")
            return
        }
        #expect((queue.label == DispatchQueue.main.label) == onMainThread)
    }

    @Test func theMainRuleRunsCallbacksOnTheMainQueue() async {
        _ = QueueName.main
        let ranOn = Promise<String?, Never>()
        Future<Int, Never>(value: 1).onSuccess(DefaultExecutionContext.threadingModel(isMainThread: true)) { _ in
            ranOn.success(QueueName.current)
        }
        #expect(await ranOn.future.get() == "main")
    }

    @Test func calledOffTheMainThreadCallbacksRunOnAGlobalQueueNotTheMainQueue() async {
        _ = QueueName.main
        let ranOn = Promise<String?, Never>()
        DispatchQueue.global().async {
            #expect(!Thread.isMainThread)
            Future<Int, Never>(value: 1).onSuccess { _ in ranOn.success(QueueName.current ?? "global") }
        }
        #expect(await ranOn.future.get() == "global")
    }

    @Test func aTaskLocalOverrideAppliesInsideOnly() async {
        let order = Recorder<String>()
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            #expect(defaultContext().isImmediate)
            Future<Int, Never>(value: 1).onSuccess { _ in order.append("inline") }
            order.append("after")
        }
        #expect(order.values == ["inline", "after"])
        #expect(!defaultContext().isImmediate)
    }

    @Test func aTaskLocalOverrideReachesChildTasks() async {
        let immediateInChild = await DefaultExecutionContext.withDefault(immediateExecutionContext) {
            await Task { defaultContext().isImmediate }.value
        }
        #expect(immediateInChild)
    }

    @Test func aProcessWideDefaultAppliesEverywhereUntilResetAndATaskLocalOverrideWins() async {
        // A context that behaves like the off-main default (a global queue), so tests running meanwhile
        // in parallel see no difference, but that this test can recognise.
        let uses = Counter()
        let marked = ExecutionContext { task in
            uses.increment()
            DispatchQueue.global().async(execute: task)
        }
        DefaultExecutionContext.setProcessDefault(marked)
        let onOtherThread = Promise<Bool, Never>()
        DispatchQueue.global().async {
            defaultContext().execute {}
            onOtherThread.success(uses.value >= 1)
        }
        let seenElsewhere = await onOtherThread.future.get()
        let taskLocalWins = DefaultExecutionContext.withDefault(immediateExecutionContext) {
            defaultContext().isImmediate
        }
        DefaultExecutionContext.setProcessDefault(nil)
        let usesBeforeReset = uses.value
        defaultContext().execute {}
        #expect(seenElsewhere)
        #expect(taskLocalWins)
        #expect(uses.value == usesBeforeReset)  // reset: the marked context is no longer used
    }
}
