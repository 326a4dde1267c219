import BoltsSwift
import Clocks
import Foundation
import Testing

@testable import Futures

/// How a test gets a task with a given outcome: already completed, or pending and completed later.
enum Entry: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case completed
    case pending

    var testDescription: String { rawValue }

    /// A task for `outcome` and the call that completes it (nothing to do for a completed one).
    func task<T: Sendable>(_ outcome: Result<T, any Error>) -> (task: Task<T>, complete: @Sendable () -> Void) {
        switch self {
        case .completed:
            return (Task(future: Future(result: outcome)), {})
        case .pending:
            let source = TaskCompletionSource<T>()
            return (
                source.task,
                {
                    switch outcome {
                    case .success(let value): source.set(result: value)
                    case .failure(let error) where isCancellationError(error): source.cancel()
                    case .failure(let error): source.set(error: error)
                    }
                }
            )
        }
    }
}

@Suite("BoltsSwift: tasks and continuations")
struct TaskTests {
    @Test(arguments: Entry.allCases)
    func aContinuationReceivesTheVeryTaskItWasAddedTo(_ entry: Entry) {
        let (task, complete) = entry.task(.success(1))
        let same = Recorder<Bool>()
        let next = task.continueWith(.immediate) { same.append($0 === task) }
        complete()
        #expect(next.completed && same.values == [true])
        #expect(next !== task)
    }

    @Test(arguments: Entry.allCases)
    func theStatesReadAsInBoltsSwift(_ entry: Entry) {
        let (succeeded, completeSuccess) = entry.task(.success("a"))
        let (faulted, completeFault) = entry.task(Result<String, any Error>.failure(TestError()))
        let (cancelled, completeCancel) = entry.task(Result<String, any Error>.failure(FuturesError.cancelled))
        #expect(succeeded.completed == (entry == .completed))
        #expect(succeeded.description == (entry == .completed ? "Task: success(\"a\")" : "Task: pending"))
        completeSuccess()
        completeFault()
        completeCancel()
        #expect(succeeded.completed && !succeeded.faulted && !succeeded.cancelled && succeeded.result == "a")
        #expect(faulted.completed && faulted.faulted && !faulted.cancelled && faulted.error is TestError)
        #expect(cancelled.completed && !cancelled.faulted && cancelled.cancelled && cancelled.error == nil)
        #expect(succeeded.description == "Task: success(\"a\")")
        #expect(faulted.description == "Task: error(\(String(reflecting: TestError())))")
        #expect(cancelled.description == "Task: cancelled")
        #expect(Task<Int>.cancelledTask().cancelled)
    }

    @Test(arguments: Entry.allCases)
    func errorsPropagateThroughSuccessContinuationsToTheFirstHandler(_ entry: Entry) {
        let (task, complete) = entry.task(Result<Int, any Error>.failure(TestError(code: 7)))
        let ran = Recorder<Int>()
        let end = task.continueOnSuccessWith(.immediate) { value -> Int in
            ran.append(value)
            return value + 1
        }
        .continueOnSuccessWithTask(.immediate) { value -> Task<Int> in
            ran.append(value)
            return Task(value)
        }
        .continueOnErrorWith(.immediate) { (error: TestError) in error.code * 10 }
        complete()
        #expect(ran.values.isEmpty)
        #expect(end.result == 70)
    }

    @Test(arguments: Entry.allCases)
    func anErrorOfAnotherTypePassesAnErrorHandlerForAType(_ entry: Entry) {
        let (task, complete) = entry.task(Result<Int, any Error>.failure(CocoaError(.fileNoSuchFile)))
        let end = task.continueOnErrorWith(.immediate) { (_: TestError) in 0 }
        complete()
        #expect((end.error as? CocoaError)?.code == .fileNoSuchFile)
    }

    @Test(arguments: Entry.allCases)
    func cancellationPassesThroughEveryFormButContinueWith(_ entry: Entry) {
        let (task, complete) = entry.task(Result<Int, any Error>.failure(FuturesError.cancelled))
        let ran = Recorder<String>()
        let success = task.continueOnSuccessWith(.immediate) { _ in ran.append("success") }
        let error = task.continueOnErrorWith(.immediate) { _ -> Int in
            ran.append("error")
            return 0
        }
        let always = task.continueWith(.immediate) { task in task.cancelled }
        complete()
        #expect(ran.values.isEmpty)
        #expect(success.cancelled && error.cancelled)
        #expect(always.result == true)
    }

    @Test(arguments: Entry.allCases)
    func throwingCancelledErrorCancelsAndAnyOtherErrorFaults(_ entry: Entry) {
        let (task, complete) = entry.task(.success(1))
        let cancelled = task.continueWith(.immediate) { _ -> Int in throw CancelledError() }
        let faulted = task.continueWithTask(.immediate) { _ -> Task<Int> in throw TestError(code: 2) }
        let returnedCancelled = task.continueOnSuccessWithTask(.immediate) { _ in Task<Int>.cancelledTask() }
        complete()
        #expect(cancelled.cancelled && !cancelled.faulted)
        #expect(faulted.error as? TestError == TestError(code: 2))
        #expect(returnedCancelled.cancelled)
    }

    @Test(arguments: Entry.allCases)
    func aReturnedTaskIsFollowedNotNested(_ entry: Entry) {
        let (task, complete) = entry.task(.success(1))
        let inner = TaskCompletionSource<String>()
        let next = task.continueWithTask(.immediate) { _ in inner.task }
        complete()
        #expect(!next.completed)
        inner.set(result: "done")
        #expect(next.result == "done")
        #expect(next !== inner.task)
    }

    /// Generic code that makes a task of its input's own class (BrightFutures' `AsyncType` extensions do,
    /// with `Self { complete in … }`) gets a task that its resolver completes, whichever continuation
    /// made the input.
    @Test(arguments: Entry.allCases)
    func aTaskOfEveryKindMakesATaskOfItsClassThatItsResolverCompletes(_ entry: Entry) {
        let (task, complete) = entry.task(.success(1))
        let inputs: [Task<Int>] = [
            task,
            task.continueWith(.immediate) { $0.result! + 1 },
            task.continueWithTask(.immediate) { Task($0.result! + 1) },
            task.continueOnSuccessWith(.immediate) { $0 + 1 },
            task.continueOnErrorWith(.immediate) { (_: any Error) in 0 },
        ]
        for input in inputs {
            let made = type(of: input).init(resolver: { complete in complete(.success(5)) })
            #expect(type(of: made) == type(of: input))
            #expect(made.result == 5)
        }
        complete()
        #expect(inputs.map(\.result) == [1, 2, 2, 2, 1])
    }

    @Test(arguments: Entry.allCases)
    func aContinuationRunsOnItsExecutor(_ entry: Entry) async throws {
        let queue = DispatchQueue(label: "bolts.executor")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let (task, complete) = entry.task(.success(1))
        let next = task.continueWith(.queue(queue)) { _ in DispatchQueue.getSpecific(key: key) }
        let handed = Recorder<Int>()
        let viaClosure = task.continueWith(
            .escapingClosure({ work in
                handed.append(1)
                queue.async(execute: work)
            })
        ) { _ in DispatchQueue.getSpecific(key: key) }
        complete()
        #expect(try await next.future.get() == 1)
        #expect(try await viaClosure.future.get() == 1)
        #expect(handed.values == [1])
    }

    @Test func executeAndExecuteWithTaskRunTheirClosures() {
        let value = Task<Int>.execute(.immediate) { 5 }
        let followed = Task<Int>.executeWithTask(.immediate) { Task(6) }
        let thrown = Task<Int> { throw CancelledError() }
        #expect(value.result == 5 && followed.result == 6 && thrown.cancelled)
    }

    @Test func waitUntilCompletedWaitsForAnotherThread() {
        let source = TaskCompletionSource<Int>()
        DispatchQueue.global().async { source.set(result: 3) }
        source.task.waitUntilCompleted()
        #expect(source.task.result == 3)
    }

    @Test func withDelayCompletesLater() async throws {
        let delayed = Task<Void>.withDelay(0.001)
        try await delayed.get()
        #expect(delayed.completed && !delayed.faulted)
    }

    /// The delay runs on the clock it is given: on a test clock, the task completes exactly when the
    /// clock has been advanced by the delay, and not before.
    @Test func withDelayRunsOnTheClockItIsGiven() async throws {
        let clock = TestClock()
        let delayed = Task<Void>.withDelay(2, clock: clock)
        let next = delayed.continueWith(.immediate) { task in task.completed }
        await clock.advance(by: .milliseconds(1999))
        #expect(!delayed.completed)
        await clock.advance(by: .milliseconds(1))
        #expect(try await next.get() == true)
        #expect(delayed.completed && !delayed.faulted && !delayed.cancelled)
    }
}

@Suite("BoltsSwift: gathering")
struct GatheringTests {
    @Test(arguments: Entry.allCases)
    func whenAllResultGivesTheResultsInListOrder(_ entry: Entry) {
        let inputs = (0..<5).map { entry.task(Result<Int, any Error>.success($0)) }
        let all = Task.whenAllResult(inputs.map(\.task))
        let done = Task.whenAll(inputs.map(\.task))
        for input in inputs.reversed() { input.complete() }
        #expect(all.result == [0, 1, 2, 3, 4])
        #expect(done.completed && !done.faulted && !done.cancelled)
    }

    @Test(arguments: Entry.allCases)
    func whenAllAggregatesEveryErrorAndCancellationWins(_ entry: Entry) {
        let faults = [
            entry.task(Result<Int, any Error>.failure(TestError(code: 1))),
            entry.task(Result<Int, any Error>.success(2)),
            entry.task(Result<Int, any Error>.failure(TestError(code: 3))),
        ]
        let one = [entry.task(Result<Int, any Error>.failure(TestError(code: 4)))]
        let withCancel = faults + [entry.task(Result<Int, any Error>.failure(FuturesError.cancelled))]
        let aggregate = Task.whenAllResult(faults.map(\.task))
        let single = Task.whenAll(one.map(\.task))
        let cancelled = Task.whenAll(withCancel.map(\.task))
        for input in withCancel + one { input.complete() }
        #expect((aggregate.error as? AggregateError)?.errors.map { ($0 as? TestError)?.code } == [1, 3])
        #expect((single.error as? AggregateError)?.errors.count == 1)
        #expect(cancelled.cancelled)
    }

    @Test func whenAllOfNothingSucceedsAtOnce() {
        #expect(Task<Int>.whenAll([]).completed && Task<Int>.whenAllResult([]).result == [])
        #expect(Task<Int>.whenAny([]).completed)
    }

    /// Bolts-Swift's `whenAny` completes on the first completion of any kind (`BFTask`'s waits for a success).
    @Test(arguments: Entry.allCases)
    func whenAnySucceedsOnTheFirstCompletionEvenAFault(_ entry: Entry) {
        let first = entry.task(Result<Int, any Error>.failure(TestError()))
        let never = TaskCompletionSource<Int>()
        let any = Task.whenAny(first.task, never.task)
        first.complete()
        #expect(any.completed && !any.faulted && !any.cancelled)
        #expect(!never.task.completed)
        never.set(result: 0)
    }
}
