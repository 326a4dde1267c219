import Bolts
import Testing

@testable import Futures

/// Recursion through completed tasks: each level continues a completed task with the next level.
private func down(_ n: Int, on executor: BFExecutor) -> BFTask<Int> {
    if n == 0 { return BFTask(result: 0) }
    return BFTask(result: n).continueOnSuccessWithTask(executor: executor) { (succeeded: BFTask<Int>) -> BFTask<Int> in
        let value = succeeded.result!
        return down(value - 1, on: executor)
    }
}

@Suite("BFTask: a million continuations in bounded stack", .serialized, .hangGuard(minutes: 5))
struct BFTaskDepthTests {
    static let depth = testDepth

    @Test(arguments: StackKind.allCases)
    func aMillionImmediateContinuationsOverCompletedTasks(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            var task = BFTask<Int>(result: 0)
            for _ in 0..<Self.depth {
                task = task.continueWith(executor: .immediate) { $0.result! + 1 }
            }
            return task.result
        }
        #expect(result == Self.depth)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionImmediateContinuationsOverAPendingSourceCompletedLater(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            let source = BFTaskCompletionSource<Int>()
            var task = source.task
            for _ in 0..<Self.depth {
                task = task.continueWith(executor: .immediate) { $0.result! + 1 }
            }
            source.set(result: 0)
            return task.result
        }
        #expect(result == Self.depth)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionDefaultExecutorContinuationsOverAPendingSource(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            let source = BFTaskCompletionSource<Int>()
            var task = source.task
            for _ in 0..<Self.depth {
                task = task.continueOnSuccessWith { $0.result! + 1 }
            }
            source.set(result: 0)
            task.waitUntilFinished()
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
    func aMillionDeepRecursionThroughCompletedTasksOnTheDefaultExecutor(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            let task = down(Self.depth, on: .default)
            task.waitUntilFinished()
            return task.result
        }
        #expect(result == 0)
    }
}

@Suite("BFTask: continuations hold no cycles", .hangGuard())
struct BFTaskMemoryTests {
    @Test func continuationsOfAnAbandonedPendingTaskAreReleased() {
        let source = WeakSlot<Future<Int, any Error>>()
        let immediate = WeakSlot<Future<Int, any Error>>()
        let byDefault = WeakSlot<Future<Int, any Error>>()
        let chained = WeakSlot<Future<Int, any Error>>()
        do {
            let placeholder = Future<Int, any Error>()
            source.object = placeholder
            let task = BFTask(placeholder)
            immediate.object = task.continueWith(executor: .immediate) { $0.result ?? 0 }.future
            byDefault.object = task.continueOnSuccessWith { $0.result! + 1 }.future
            chained.object =
                task.continueWithTask(executor: .immediate) { (_: BFTask<Int>) -> BFTask<Int> in BFTask(result: 1) }
                .future
        }
        #expect(source.isFreed)
        #expect(immediate.isFreed)
        #expect(byDefault.isFreed)
        #expect(chained.isFreed)
    }

    @Test func aContinuationOfAPendingTaskRunsWhenItCompletesEvenIfItsResultWasDropped() {
        let source = BFTaskCompletionSource<Int>()
        let seen = Recorder<Int>()
        let next = WeakSlot<Future<Void, any Error>>()
        do {
            next.object = source.task.continueWith(executor: .immediate) { task in seen.append(task.result!) }.future
        }
        #expect(!next.isFreed)  // the pending source holds its continuation
        source.set(result: 7)
        #expect(seen.values == [7])
        #expect(next.isFreed)  // ran, then released
    }

    @Test func aHeldContinuationReceivesItsTask() {
        let source = BFTaskCompletionSource<Int>()
        let continued = source.task.continueWith(executor: .immediate) { task in
            task.isCompleted && task.future === source.task.future ? task.result! * 2 : -1
        }
        source.set(result: 21)
        #expect(continued.result == 42)
    }
}
