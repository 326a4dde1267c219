import BoltsSwift
import Foundation
import Testing

@testable import Futures

/// Recursion through completed tasks: each level continues a completed task with the next level.
private func down(_ n: Int, on executor: Executor) -> Task<Int> {
    if n == 0 { return Task(0) }
    return Task(n).continueOnSuccessWithTask(executor) { value in down(value - 1, on: executor) }
}

@Suite("BoltsSwift: a million continuations in bounded stack", .serialized, .hangGuard(minutes: 5))
struct DepthTests {
    static let depth = testDepth

    @Test(arguments: StackKind.allCases)
    func aMillionImmediateContinuationsOverCompletedTasks(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            var task = Task(0)
            for _ in 0..<Self.depth {
                task = task.continueWith(.immediate) { $0.result! + 1 }
            }
            return task.result
        }
        #expect(result == Self.depth)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionImmediateContinuationsOverAPendingSourceCompletedLater(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            let source = TaskCompletionSource<Int>()
            var task = source.task
            for _ in 0..<Self.depth {
                task = task.continueOnSuccessWith(.immediate) { $0 + 1 }
            }
            source.set(result: 0)
            return task.result
        }
        #expect(result == Self.depth)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionImmediateContinueWithOverAPendingSourceCompletedLater(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            let source = TaskCompletionSource<Int>()
            var task = source.task
            for _ in 0..<Self.depth {
                task = task.continueWith(.immediate) { $0.result! + 1 }
            }
            source.set(result: 0)
            return task.result
        }
        #expect(result == Self.depth)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionDeepRecursionThroughCompletedTasksOnTheImmediateExecutor(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            down(Self.depth, on: .immediate).result
        }
        #expect(result == 0)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionDefaultExecutorContinuationsOverAPendingSource(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            let source = TaskCompletionSource<Int>()
            var task = source.task
            for _ in 0..<Self.depth {
                task = task.continueWith { $0.result! + 1 }
            }
            source.set(result: 0)
            task.waitUntilCompleted()
            return task.result
        }
        #expect(result == Self.depth)
    }
}

/// A continuation form, one step of a chain over `Task<Int>` on `.immediate`: the success forms add one to
/// the value, the error forms add one to the code of the `TestError` the task faulted with.
enum ChainedForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case continueWith, continueWithTask, continueOnSuccessWith, continueOnSuccessWithTask
    case continueOnErrorWith, continueOnErrorWithTask, continueOnAnyErrorWith, continueOnAnyErrorWithTask

    var testDescription: String { rawValue }

    /// Whether the chain runs on a fault (the error forms) rather than on a success.
    var onFault: Bool {
        switch self {
        case .continueWith, .continueWithTask, .continueOnSuccessWith, .continueOnSuccessWithTask: false
        default: true
        }
    }

    /// The task this form continues `task` with.
    func step(_ task: Task<Int>) -> Task<Int> {
        switch self {
        case .continueWith: task.continueWith(.immediate) { $0.result! + 1 }
        case .continueWithTask: task.continueWithTask(.immediate) { Task($0.result! + 1) }
        case .continueOnSuccessWith: task.continueOnSuccessWith(.immediate) { $0 + 1 }
        case .continueOnSuccessWithTask: task.continueOnSuccessWithTask(.immediate) { Task($0 + 1) }
        case .continueOnErrorWith:
            task.continueOnErrorWith(.immediate) { (error: TestError) throws -> Int in
                throw TestError(code: error.code + 1)
            }
        case .continueOnErrorWithTask:
            task.continueOnErrorWithTask(.immediate) { (error: TestError) in
                Task<Int>(error: TestError(code: error.code + 1))
            }
        case .continueOnAnyErrorWith:
            task.continueOnErrorWith(.immediate) { (error: any Error) throws -> Int in
                throw TestError(code: (error as? TestError)!.code + 1)
            }
        case .continueOnAnyErrorWithTask:
            task.continueOnErrorWithTask(.immediate) { (error: any Error) in
                Task<Int>(error: TestError(code: (error as? TestError)!.code + 1))
            }
        }
    }

    /// How many steps ran: the value, or the code of the error.
    func count(_ task: Task<Int>) -> Int? {
        onFault ? (task.error as? TestError)?.code : task.result
    }
}

@Suite("BoltsSwift: deep chains of every form", .serialized, .hangGuard(minutes: 5))
struct EveryFormDepthTests {
    /// Every form chained on `.immediate`, from a task completed before the chain (every step takes the
    /// fast path, the continuation running at once) or completed after it (every step is a continuation
    /// task that stores the closure, run when its source completes): the chain completes in bounded stack
    /// and every closure runs once. `heavyTestDepth` steps (100,000, far beyond what an 8 MB stack holds if
    /// completions recursed) keep the 16 cases to seconds; `DepthTests` runs a million steps of
    /// `continueWith` and `continueOnSuccessWith` on every kind of thread.
    @Test(arguments: ChainedForm.allCases, Entry.allCases)
    func deepChainsOnTheImmediateExecutor(_ form: ChainedForm, _ entry: Entry) async {
        let depth = heavyTestDepth
        let count = await StackKind.plainThread.run { () -> Int? in
            let (first, complete) = entry.task(
                form.onFault ? Result<Int, any Error>.failure(TestError()) : .success(0))
            var task = first
            for _ in 0..<depth { task = form.step(task) }
            complete()
            return form.count(task)
        }
        #expect(count == depth)
    }
}

@Suite("BoltsSwift: continuations are released", .hangGuard())
struct MemoryTests {
    /// Every form, over a task completed before (the fast path) or after (a derived step) the call: the
    /// closure, and what it captured, is released once it has run.
    @Test(arguments: Entry.allCases, [Executor.immediate, .default])
    func aContinuationAndWhatItCapturedAreReleasedOnceItRan(_ entry: Entry, _ executor: Executor) {
        let captured = (0..<6).map { _ in WeakSlot<Captured>() }
        let (task, complete) = entry.task(Result<Int, any Error>.success(1))
        let (failed, completeFailure) = entry.task(Result<Int, any Error>.failure(TestError()))
        var results: [Task<Int>] = []
        do {
            let objects = (0..<6).map { Captured($0) }
            for (slot, object) in zip(captured, objects) { slot.object = object }
            results.append(task.continueWith(executor) { $0.result! + objects[0].value })
            results.append(task.continueWithTask(executor) { Task($0.result! + objects[1].value) })
            results.append(task.continueOnSuccessWith(executor) { $0 + objects[2].value })
            results.append(task.continueOnSuccessWithTask(executor) { Task($0 + objects[3].value) })
            results.append(failed.continueOnErrorWith(executor) { _ in objects[4].value })
            results.append(failed.continueOnErrorWithTask(executor) { _ in Task(objects[5].value) })
        }
        complete()
        completeFailure()
        for result in results { result.waitUntilCompleted() }
        #expect(results.map(\.result) == [1, 2, 3, 4, 4, 5])
        #expect(captured.allSatisfy { $0.isFreed })
    }

    /// A task that follows a future nobody can complete any more faults (`FuturesError.brokenPromise`),
    /// so that its continuations, and whatever they hold, are released.
    @Test func continuationsOfAnAbandonedPendingTaskAreReleased() {
        let source = WeakSlot<Future<Int, any Error>>()
        let continued = WeakSlot<Future<Int, any Error>>()
        let chained = WeakSlot<Future<Int, any Error>>()
        let capturedByClosure = WeakSlot<Captured>()
        do {
            let placeholder = Future<Int, any Error>()  // nobody can complete it
            source.object = placeholder
            let task = Task(future: placeholder)
            let object = Captured(1)
            capturedByClosure.object = object
            continued.object = task.continueWith(.immediate) { _ in object.value }
            chained.object = task.continueWithTask(.immediate) { _ in Task(1) }.continueOnSuccessWith(.immediate) { $0 }
        }
        #expect(source.isFreed && continued.isFreed && chained.isFreed && capturedByClosure.isFreed)
    }

    @Test func aPendingTaskHoldsItsContinuationUntilItRuns() {
        let source = TaskCompletionSource<Int>()
        let seen = Recorder<Int>()
        let next = WeakSlot<Future<Void, any Error>>()
        do {
            next.object = source.task.continueWith(.immediate) { task in seen.append(task.result!) }
        }
        #expect(!next.isFreed)
        source.set(result: 7)
        #expect(seen.values == [7])
        #expect(next.isFreed)
    }

    /// A continuation added to a task nobody else holds still gets that task, which it holds until it runs.
    @Test func aContinuationOfADroppedTaskGetsItsOutcome() {
        let source = TaskCompletionSource<Int>()
        let end = source.task.continueOnSuccessWith(.immediate) { $0 + 1 }
            .continueWith(.immediate) { task in task.result! * 10 }
        source.set(result: 1)
        #expect(end.result == 20)
    }
}
