import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

struct TestError: Error, Equatable {
    let code: Int
}

@Suite("BFTask: states and the completion source")
struct BFTaskStateTests {
    @Test func aTaskWithAResultSucceeded() {
        let task = BFTask(result: 5)
        #expect(task.isCompleted && task.result == 5)
        #expect(!task.isFaulted && !task.isCancelled && task.error == nil)
    }

    @Test func aTaskWithAnErrorFaulted() {
        let task = BFTask<Int>(error: TestError(code: 1))
        #expect(task.isCompleted && task.isFaulted && !task.isCancelled)
        #expect((task.error as? TestError) == TestError(code: 1) && task.result == nil)
    }

    @Test func aCancelledTaskIsNeitherFaultedNorSucceeded() {
        let task = BFTask<Int>.cancelled()
        #expect(task.isCompleted && task.isCancelled && !task.isFaulted)
        #expect(task.error == nil && task.result == nil)
    }

    @Test func aCancellationErrorReadsAsCancelled() {
        #expect(BFTask<Int>(error: CancellationError()).isCancelled)
        #expect(BFTask<Int>(error: FuturesError.cancelled).isCancelled)
        #expect(!BFTask<Int>(error: FuturesError.timedOut).isCancelled)
    }

    @Test func aSourceMovesItsTaskFromPendingToEachTerminalState() {
        let succeeding = BFTaskCompletionSource<String>()
        #expect(!succeeding.task.isCompleted && succeeding.task.result == nil)
        succeeding.set(result: "done")
        #expect(succeeding.task.result == "done")

        let faulting = BFTaskCompletionSource<String>()
        faulting.set(error: TestError(code: 2))
        #expect((faulting.task.error as? TestError)?.code == 2)

        let cancelling = BFTaskCompletionSource<String>()
        cancelling.cancel()
        #expect(cancelling.task.isCancelled)
    }

    @Test func settingTwiceKeepsTheFirstOutcomeAndReportsTheSecond() {
        let reports = Recorder<FuturesDiagnostic>()
        let source = BFTaskCompletionSource<Int>()
        FuturesDiagnostics.withHandler({ reports.append($0) }) {
            source.set(result: 1)
            source.set(error: TestError(code: 0))
            source.cancel()
        }
        #expect(source.task.result == 1)
        #expect(reports.values.count == 2)
        guard case .promiseCompletedTwice = reports.values.first else {
            Issue.record("expected promiseCompletedTwice, got \(reports.values)")
            return
        }
    }

    @Test func theTryFormsReportWhetherTheyCompletedTheTask() {
        let reports = Recorder<FuturesDiagnostic>()
        let source = BFTaskCompletionSource<Int>()
        FuturesDiagnostics.withHandler({ reports.append($0) }) {
            #expect(source.trySetCancelled())
            #expect(!source.trySet(result: 1))
            #expect(!source.trySet(error: TestError(code: 1)))
            #expect(!source.trySetCancelled())
        }
        #expect(source.task.isCancelled)
        #expect(reports.values.isEmpty, "try forms never report")
    }

    @Test func aDroppedSourceFaultsItsTaskWithBrokenPromise() {
        let reports = Recorder<FuturesDiagnostic>()
        let line: UInt = #line + 2
        let task = FuturesDiagnostics.withHandler({ reports.append($0) }) {
            BFTaskCompletionSource<Int>().task
        }
        #expect((task.error as? FuturesError) == .brokenPromise)
        #expect(reports.values.count == 1)
        guard case .promiseDropped(let type, let file, let reportedLine)? = reports.values.first else {
            Issue.record("expected promiseDropped, got \(reports.values)")
            return
        }
        #expect(type == "BFTaskCompletionSource<Int>", "the report names the source the user made")
        #expect(file == "\(#fileID)" && reportedLine == line, "at the line that made it")
    }

    @Test func awaitingATaskInACancelledSwiftTaskCanReachItsProducer() async {
        let source = BFTaskCompletionSource<Int>()
        source.cancellationToken.onCancellationRequested { source.trySetCancelled() }
        let waiter = Task { try await source.task.get(onTaskCancellation: .requestCancellation) }
        while storedEntryCount(source.task.future) != 2 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: FuturesError.cancelled) { try await waiter.value }
        #expect(source.task.isCancelled)
    }

    @Test func theDescriptionShowsTheState() {
        #expect("\(BFTask(result: 5))" == "BFTask<Int>(completed: true, cancelled: false, faulted: false, result: 5)")
        #expect("\(BFTask<Int>.cancelled())" == "BFTask<Int>(completed: true, cancelled: true, faulted: false)")
        #expect(
            "\(BFTask<Int>(error: TestError(code: 1)))"
                == "BFTask<Int>(completed: true, cancelled: false, faulted: true, error: TestError(code: 1))")
        let pending = BFTaskCompletionSource<Int>()
        #expect("\(pending.task)" == "BFTask<Int>(completed: false, cancelled: false, faulted: false)")
        pending.set(result: 0)
    }

    @Test func waitUntilFinishedBlocksUntilAnotherThreadCompletes() {
        let source = BFTaskCompletionSource<Int>()
        DispatchQueue.global().async { source.set(result: 3) }
        source.task.waitUntilFinished()
        #expect(source.task.result == 3)
    }

    @Test func getReturnsTheResultOrThrows() async throws {
        #expect(try await BFTask(result: 1).get() == 1)
        await #expect(throws: FuturesError.cancelled) { try await BFTask<Int>.cancelled().get() }
        await #expect(throws: TestError(code: 4)) { try await BFTask<Int>(error: TestError(code: 4)).get() }
    }
}

@Suite("BFTask: continuations")
struct BFTaskContinuationTests {
    @Test func continueWithSeesEveryStateAndTransformsIt() {
        let states = Recorder<String>()
        for task in [BFTask(result: 1), BFTask(error: TestError(code: 1)), BFTask.cancelled()] {
            let next = task.continueWith { task -> String in
                task.isCancelled ? "cancelled" : task.isFaulted ? "faulted" : "result \(task.result!)"
            }
            states.append(next.result ?? "?")
        }
        #expect(states.values == ["result 1", "faulted", "cancelled"])
    }

    @Test func returningATaskChainsWithoutNesting() {
        let source = BFTaskCompletionSource<Int>()
        let chained: BFTask<Int> = BFTask(result: 1).continueWithTask { _ in source.task }
        #expect(!chained.isCompleted, "waits for the returned task")
        source.set(result: 2)
        #expect(chained.result == 2)
    }

    @Test func throwingFaultsAndReturningACancelledTaskCancels() {
        let thrown = BFTask(result: 1).continueWith { _ -> Int in throw TestError(code: 7) }
        #expect((thrown.error as? TestError)?.code == 7)
        let cancelled = BFTask(result: 1).continueWithTask { _ in BFTask<Int>.cancelled() }
        #expect(cancelled.isCancelled)
        let thrownCancellation = BFTask(result: 1).continueWith { _ -> Int in throw CancellationError() }
        #expect(thrownCancellation.isCancelled)
    }

    @Test func overloadsPickChainingAndVoidBlocksWithoutNesting() {
        let task = BFTask(result: 1)
        let text = BFTask(result: "x")
        let source = BFCancellationTokenSource()
        let runs = Counter()
        #expect(type(of: task.continueWithTask { _ in text }) == BFTask<String>.self)
        #expect(type(of: task.continueWith { $0.result! + 1 }) == BFTask<Int>.self)
        #expect(type(of: task.continueOnSuccessWithTask { _ in text }) == BFTask<String>.self)
        #expect(type(of: task.continueWithTask(cancellationToken: source.token) { _ in text }) == BFTask<String>.self)
        // A multi-statement block without `return` where a `BFTask<Void>` is expected.
        func sideEffects() -> BFTask<Void> {
            task.continueWith { _ in
                runs.increment()
                runs.increment()
            }
        }
        func sideEffectsOnSuccess() -> BFTask<Void> {
            task.continueOnSuccessWith(cancellationToken: source.token) { _ in
                runs.increment()
                runs.increment()
            }
        }
        #expect(sideEffects().isCompleted && sideEffectsOnSuccess().isCompleted)
        #expect(runs.value == 4)
        let voidTask: BFTask<Void> = task.continueWithTask { _ in BFTask(result: ()) }
        #expect(voidTask.isCompleted)
        // Objective-C Bolts' Swift spellings, with labels.
        let labelled = task.continueWith(block: { $0.result! + 1 })
        let withExecutor = task.continueWithTask(executor: .immediate, block: { _ in text })
        let onSuccess = task.continueOnSuccessWith(block: { $0.result! * 3 })
        let withToken = task.continueWith(executor: .immediate, block: { _ in 0 }, cancellationToken: source.token)
        #expect(labelled.result == 2 && withExecutor.result == "x" && onSuccess.result == 3 && withToken.result == 0)
    }

    @Test func aSetTokenCancelsTheContinuationWithoutRunningTheBlock() {
        let source = BFCancellationTokenSource()
        let ran = Counter()
        let pending = BFTaskCompletionSource<Int>()
        let next = pending.task.continueWith(cancellationToken: source.token) { _ in ran.increment() }
        source.cancel()
        #expect(!next.isCompleted, "the token is checked when the block would run")
        pending.set(result: 1)
        #expect(next.isCancelled && ran.value == 0)
        let alsoCancelled = BFTask(result: 1).continueWith(
            block: { _ in ran.increment() }, cancellationToken: source.token)
        #expect(alsoCancelled.isCancelled && ran.value == 0)
    }

    @Test func anUncancelledTokenLetsTheBlockRun() {
        let source = BFCancellationTokenSource()
        let next = BFTask(result: 2).continueOnSuccessWith(cancellationToken: source.token) { $0.result! * 2 }
        #expect(next.result == 4)
    }

    @Test func continueOnSuccessWithPassesFaultsAndCancellationThrough() {
        let ran = Counter()
        let faulted = BFTask<Int>(error: TestError(code: 3)).continueOnSuccessWith { succeeded -> Int in
            let value = succeeded.result!
            ran.increment()
            return value
        }
        let cancelled = BFTask<Int>.cancelled().continueOnSuccessWithTask { _ in BFTask(result: "x") }
        #expect((faulted.error as? TestError)?.code == 3)
        #expect(cancelled.isCancelled)
        #expect(ran.value == 0)
        let succeeded = BFTask(result: 3).continueOnSuccessWithTask { BFTask(result: "\($0.result!)") }
        #expect(succeeded.result == "3")
        let thrown = BFTask(result: 3).continueOnSuccessWith { _ -> Int in throw TestError(code: 9) }
        #expect((thrown.error as? TestError)?.code == 9)
    }

    @Test func continueOnErrorWithRecoversFaultsOnly() {
        let recovered = BFTask<Int>(error: TestError(code: 1)).continueOnErrorWith { error in
            (error as? TestError)?.code ?? 0
        }
        #expect(recovered.result == 1)
        let chained = BFTask<Int>(error: TestError(code: 2)).continueOnErrorWith { _ in BFTask(result: 20) }
        #expect(chained.result == 20)
        let ran = Counter()
        let success = BFTask(result: 5).continueOnErrorWith { _ -> Int in
            ran.increment()
            return 0
        }
        let cancelled = BFTask<Int>.cancelled().continueOnErrorWith { _ -> Int in
            ran.increment()
            return 0
        }
        #expect(success.result == 5 && cancelled.isCancelled && ran.value == 0)
    }

    @Test func aTokenCancelsAnOnSuccessContinuationEvenAfterAFault() {
        let source = BFCancellationTokenSource()
        source.cancel()
        let next = BFTask<Int>(error: TestError(code: 1)).continueOnSuccessWith(
            block: { $0 }, cancellationToken: source.token)
        #expect(next.isCancelled)
    }

    @Test func startingWorkOnAnExecutorRunsTheBlockThere() async throws {
        let queue = DispatchQueue(label: "bf.start")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let onQueue = BFTask(executor: BFExecutor(dispatchQueue: queue)) { DispatchQueue.getSpecific(key: key) == 1 }
        #expect(try await onQueue.get())
        let chained = BFTask(executor: .immediate) { BFTask(result: 8) }
        #expect(chained.result == 8)
        let thrown = BFTask<Int>(executor: .immediate) { throw TestError(code: 5) }
        #expect(thrown.isFaulted)
    }

    @Test func aContinuationIsReleasedOnceItRan() {
        weak var weakResource: Resource?
        let source = BFTaskCompletionSource<Int>()
        do {
            let resource = Resource()
            weakResource = resource
            source.task.continueWith(executor: .immediate) { _ in _ = resource }
        }
        #expect(weakResource != nil)
        source.set(result: 1)
        #expect(weakResource == nil)
    }

    @Test func aChainDoesNotKeepItsTasksAlive() {
        weak var weakFirst: Future<Int, any Error>?
        let last: BFTask<Int>
        do {
            let first = BFTask(result: 1)
            weakFirst = first.future
            last = first.continueOnSuccessWith { $0.result! + 1 }
        }
        #expect(last.result == 2)
        #expect(weakFirst == nil)
    }

    @Test func aLongSynchronousChainOnTheDefaultExecutorDoesNotOverflowTheStack() {
        let source = BFTaskCompletionSource<Int>()
        var task = source.task
        for _ in 0..<100_000 {
            task = task.continueOnSuccessWith(executor: .immediate) { $0.result! + 1 }
        }
        source.set(result: 0)
        task.waitUntilFinished()
        #expect(task.result == 100_000)
    }
}

@Suite("BFTask: executors")
struct BFExecutorTests {
    @Test func theDefaultExecutorRunsInlineUntilTheStackGetsDeep() {
        // Each block starts the next continuation from inside itself, nesting one level deeper.
        let inlineDepths = Recorder<Int>()
        let done = DispatchSemaphore(value: 0)
        @Sendable func nest(_ depth: Int) {
            let caller = ObjectIdentifier(Thread.current)
            BFTask(result: ()).continueWith { _ in
                if ObjectIdentifier(Thread.current) == caller { inlineDepths.append(depth) }
                if depth < 30 { nest(depth + 1) } else { done.signal() }
            }
        }
        nest(1)
        done.wait()
        // Blocks 1…20 nest on the test's thread; the 21st hops to a global queue, where nesting starts over.
        #expect(Set(1...30).subtracting(inlineDepths.values) == [BFExecutor.maxInlineDepth + 1])
    }

    @Test func aContinuationOnABusyExecutorDoesNotHoldBackTheNextOne() async throws {
        // As in Bolts, continuations are independent (a Future's callbacks would take turns).
        let stalled = DispatchQueue(label: "bf.stalled")
        stalled.suspend()
        let task = BFTask(result: 1)
        let first = task.continueWith(executor: BFExecutor(dispatchQueue: stalled)) { _ in "first" }
        let second = task.continueWith(executor: BFExecutor(dispatchQueue: .global())) { _ in "second" }
        #expect(try await second.get() == "second")
        #expect(!first.isCompleted)
        stalled.resume()
        #expect(try await first.get() == "first")
    }

    @Test func theImmediateExecutorRunsOnTheCompletingThread() {
        let source = BFTaskCompletionSource<Int>()
        let thread = LockedBox<ObjectIdentifier?>(nil)
        let next = source.task.continueWith(executor: .immediate) { _ in thread.value = ObjectIdentifier(Thread.current)
        }
        let completer = ObjectIdentifier(Thread.current)
        source.set(result: 1)
        #expect(next.isCompleted && thread.value == completer)
    }

    @Test func theMainThreadExecutorRunsBlocksOnTheMainThread() async throws {
        let started = BFTask(executor: BFExecutor(dispatchQueue: .global())) { Thread.isMainThread }
        let onMain = started.continueWith(executor: .mainThread) { task in
            (wasMain: task.result!, isMain: Thread.isMainThread, onMainQueue: isOnMainQueue())
        }
        let (wasMain, isMain, onMainQueue) = try await onMain.get()
        #expect(!wasMain)
        #expect(onMainQueue, "the block ran on the main queue")
        // Where the main queue is drained by the main thread (Apple platforms, apps) the block ran on the
        // main thread. Under `swift test` on Linux the test runner calls `dispatch_main()`, which parks
        // the main thread and drains the main queue from a worker thread: there nothing runs on it.
        if await mainQueueRunsOnMainThread() {
            #expect(isMain, "the block ran on the main thread")
        }
    }

    @Test func theMainThreadExecutorRunsInlineExactlyWhenOnTheMainThread() async throws {
        // From a block on the main queue: inline if that block runs on the main thread (Apple platforms,
        // apps); otherwise (Linux under `dispatchMain()`, see above) re-queued on the main queue.
        let (isMain, ranInline, later): (Bool, Bool, BFTask<Bool>) = await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                let ran = LockedBox(false)
                let next = BFTask(result: 1).continueWith(executor: .mainThread) { _ -> Bool in
                    ran.value = true
                    return isOnMainQueue()
                }
                continuation.resume(returning: (Thread.isMainThread, ran.value, next))
            }
        }
        #expect(ranInline == isMain)
        #expect(try await later.get(), "either way the block ran on the main queue")
    }

    @Test func aDispatchQueueExecutorRunsOnItsQueue() async throws {
        let queue = DispatchQueue(label: "bf.queue")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "bf.queue")
        let next = BFTask(result: 1).continueWith(executor: BFExecutor(dispatchQueue: queue)) { _ in
            DispatchQueue.getSpecific(key: key)
        }
        #expect(try await next.get() == "bf.queue")
    }

    @Test func anOperationQueueExecutorRunsOperationsOnItsQueue() async throws {
        let queue = OperationQueue()
        queue.name = "bf.operations"
        let next = BFTask(result: 1).continueWith(executor: BFExecutor(operationQueue: queue)) { _ in
            OperationQueue.current?.name
        }
        #expect(try await next.get() == "bf.operations")
    }

    @Test func aBlockExecutorReceivesEveryContinuation() async throws {
        let handed = Counter()
        let executor = BFExecutor { block in
            handed.increment()
            DispatchQueue.global().async(execute: block)
        }
        let next = BFTask(result: 1)
            .continueWith(executor: executor) { $0.result! + 1 }
            .continueOnSuccessWith(executor: executor) { $0.result! * 10 }
        #expect(try await next.get() == 20)
        #expect(handed.value == 2)
    }
}

@Suite("BFTask: all, any, conversions")
struct BFTaskCombinationTests {
    @Test func allSucceedsWhenEveryTaskSucceedsWhateverTheirTypes() {
        let numbers = BFTaskCompletionSource<Int>()
        let words = BFTaskCompletionSource<String>()
        let all = BFTask(forCompletionOfAllTasks: [numbers.task, words.task, BFTask(result: ())])
        numbers.set(result: 1)
        #expect(!all.isCompleted)
        words.set(result: "a")
        #expect(all.isCompleted && !all.isFaulted && !all.isCancelled)
        #expect(BFTask(forCompletionOfAllTasks: []).isCompleted)
    }

    @Test func inAllErrorsWinOverCancellationAndSeveralAreAggregatedInListOrder() {
        let sources = (0..<4).map { _ in BFTaskCompletionSource<Int>() }
        let all = BFTask(forCompletionOfAllTasks: sources.map(\.task))
        sources[0].cancel()
        sources[3].set(error: TestError(code: 3))
        sources[1].set(error: TestError(code: 1))
        sources[2].set(result: 2)
        let aggregate = all.error as? BFAggregateError
        #expect(aggregate?.errors.compactMap { ($0 as? TestError)?.code } == [1, 3])
        #expect(!all.isCancelled)
    }

    @Test func inAllASingleErrorIsReportedAsItselfAndCancellationAloneCancels() {
        let oneError = BFTask(forCompletionOfAllTasks: [
            BFTask<Int>.cancelled(), BFTask<Int>(error: TestError(code: 1)),
        ])
        #expect((oneError.error as? TestError)?.code == 1)
        let cancelled = BFTask(forCompletionOfAllTasks: [BFTask<Int>.cancelled(), BFTask(result: 1)])
        #expect(cancelled.isCancelled)
    }

    @Test func allWithResultsKeepsListOrder() {
        let sources = (0..<3).map { _ in BFTaskCompletionSource<Int>() }
        let all = BFTask(forCompletionOfAllTasksWithResults: sources.map(\.task))
        for index in [2, 0, 1] { sources[index].set(result: index * 10) }
        #expect(all.result == [0, 10, 20])
        let withError = BFTask(forCompletionOfAllTasksWithResults: [
            BFTask(result: 1), BFTask(error: TestError(code: 2)),
        ])
        #expect((withError.error as? TestError)?.code == 2)
        #expect(BFTask<[Int]>(forCompletionOfAllTasksWithResults: [BFTask<Int>]()).result == [])
    }

    @Test func allWithResultsAcceptsTasksOfDifferentTypes() {
        let mixed = BFTask(forCompletionOfAllTasksWithResults: [BFTask(result: 1), BFTask(result: "two")])
        #expect(mixed.result?.count == 2)
        #expect(mixed.result?[0] as? Int == 1 && mixed.result?[1] as? String == "two")
        let same = BFTask(forCompletionOfAllTasksWithResults: [BFTask(result: 1), BFTask(result: 2)])
        #expect(type(of: same) == BFTask<[Int]>.self, "same types keep their type")
    }

    @Test func allOfTenThousandTasksCompletes() {
        let sources = (0..<10_000).map { _ in BFTaskCompletionSource<Int>() }
        let all = BFTask(forCompletionOfAllTasksWithResults: sources.map(\.task))
        let allVoid = BFTask(forCompletionOfAllTasks: sources.map(\.task))
        // O(n): each form adds exactly one entry per task, and each completion does O(1) work under one lock.
        #expect(sources.allSatisfy { storedEntryCount($0.task.future) == 2 })
        for (index, source) in sources.enumerated().reversed() { source.set(result: index) }
        #expect(all.result == Array(0..<10_000))
        #expect(allVoid.isCompleted && !allVoid.isFaulted)
    }

    @Test func anyTakesTheFirstSuccess() {
        let sources = (0..<3).map { _ in BFTaskCompletionSource<Int>() }
        let any = BFTask(forCompletionOfAnyTask: sources.map(\.task))
        sources[0].set(error: TestError(code: 0))
        sources[1].cancel()
        #expect(!any.isCompleted, "a fault or a cancellation does not end the race")
        sources[2].set(result: 2)
        #expect(any.result == 2)
    }

    @Test func anyFailsOnlyWhenNoTaskSucceeds() {
        let faulted = BFTask(forCompletionOfAnyTask: [
            BFTask<Int>(error: TestError(code: 1)), BFTask<Int>.cancelled(), BFTask<Int>(error: TestError(code: 2)),
        ])
        #expect((faulted.error as? BFAggregateError)?.errors.count == 2)
        let cancelled = BFTask(forCompletionOfAnyTask: [BFTask<Int>.cancelled(), BFTask<Int>.cancelled()])
        #expect(cancelled.isCancelled)
        let empty = BFTask(forCompletionOfAnyTask: [BFTask<Int>]())
        #expect((empty.error as? FuturesError) == .noSuchElement)
    }

    @Test func anyAcceptsTasksOfDifferentTypes() {
        let number = BFTaskCompletionSource<Int>()
        let any = BFTask(forCompletionOfAnyTask: [number.task, BFTask<String>(error: TestError(code: 0))])
        number.set(result: 4)
        #expect(any.result as? Int == 4)
    }

    /// Bolts-Swift's `whenAny` gives a `Task<Void>`: the moment, not the value.
    @Test func anyAsAVoidTaskOverTasksOfDifferentTypes() {
        let number = BFTaskCompletionSource<Int>()
        let text = BFTaskCompletionSource<String>()
        let any = BFTask<Void>(forCompletionOfAnyTask: [number.task, text.task])
        #expect(type(of: any) == BFTask<Void>.self)
        text.set(error: TestError(code: 1))
        #expect(!any.isCompleted, "a fault does not end the race")
        number.set(result: 4)
        #expect(any.isCompleted && !any.isFaulted && !any.isCancelled)
        func whenAny(_ tasks: [any BFTaskProtocol]) -> BFTask<Void> { BFTask(forCompletionOfAnyTask: tasks) }
        let faulted = whenAny([BFTask<Int>(error: TestError(code: 2)), BFTask<String>(error: TestError(code: 3))])
        #expect((faulted.error as? BFAggregateError)?.errors.count == 2)
        #expect(whenAny([BFTask<Int>.cancelled(), BFTask<String>.cancelled()]).isCancelled)
        #expect((whenAny([]).error as? FuturesError) == .noSuchElement)
        let untyped = BFTask(forCompletionOfAnyTask: [BFTask(result: 1), BFTask(result: "one")])
        #expect(type(of: untyped) == BFTask<any Sendable>.self, "without a type, the result is kept")
    }

    @Test func aFutureViewedAsATaskIsTheSameCell() {
        let promise = Promise<Int, any Error>()
        let task = BFTask(promise.future)
        #expect(task.future === promise.future)
        promise.failure(CancellationError())
        #expect(task.isCancelled)
        let typed = BFTask(Future<Int, TestError>(error: TestError(code: 1)))
        #expect((typed.error as? TestError)?.code == 1)
    }

    @Test func aCancelledTaskBecomesAFutureFailingWithACancellationError() {
        let future = Future(BFTask<Int>.cancelled())
        #expect((future.error as? FuturesError) == .cancelled)
        let roundTrip = BFTask(future)
        #expect(roundTrip.isCancelled)
        #expect(Future(BFTask(result: 3)).value == 3)
    }

    @Test func requestingCancellationOfTheFutureReachesTheTasksProducer() {
        let source = BFTaskCompletionSource<Int>()
        source.cancellationToken.onCancellationRequested { source.trySetCancelled() }
        let future = Future(source.task)
        future.requestCancellation()
        #expect(source.isCancellationRequested)
        #expect(source.task.isCancelled && (future.error as? FuturesError) == .cancelled)
    }

    @Test func requestingCancellationOfATypedFuturesTaskReachesTheFuture() {
        let promise = Promise<Int, TestError>()
        let asked = Recorder<String>()
        promise.onCancellationRequested { asked.append("asked") }  // a producer that reacts (G8)
        let task = BFTask(promise.future)
        task.future.requestCancellation()
        #expect(promise.isCancellationRequested)
        #expect(asked.values == ["asked"])
        promise.failure(TestError(code: 0))
        #expect(task.isFaulted)
    }
}

private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the calling block runs on the main dispatch queue.
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
}

/// Whether blocks on the main queue run on the main thread in this process.
func mainQueueRunsOnMainThread() async -> Bool {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume(returning: Thread.isMainThread) }
    }
}
