import Bolts
import Testing

@testable import Futures

/// A continuation on the immediate executor over a completed task runs at once, without registering a
/// callback (the fast path, `BFTask.continuedNow`); every other case registers one. These tests hold
/// every outcome of every continuation to the same answer on both paths: each runs on the immediate and
/// the default executor, over a task completed before the call and one completed after it.
@Suite("BFTask: every continuation has the same outcomes on its fast and registered paths")
struct BFTaskFastPathTests {
    /// Where the continuation runs, and whether its task was completed before the call.
    enum Entry: String, CaseIterable, CustomTestStringConvertible {
        case immediateCompleted, immediatePending, defaultCompleted, defaultPending

        var testDescription: String { rawValue }
        var executor: BFExecutor {
            switch self {
            case .immediateCompleted, .immediatePending: .immediate
            case .defaultCompleted, .defaultPending: .default
            }
        }
        var completedFirst: Bool { self == .immediateCompleted || self == .defaultCompleted }

        /// A task that ends as `outcome`, and the call that completes it (nothing if it already is).
        func task(_ outcome: Outcome) -> (task: BFTask<Int>, complete: () -> Void) {
            if completedFirst {
                return (outcome.settledTask, {})
            }
            let source = BFTaskCompletionSource<Int>()
            return (source.task, { outcome.set(source) })
        }
    }

    enum Outcome {
        case result(Int)
        case fault(Int)
        case cancelled

        var settledTask: BFTask<Int> {
            switch self {
            case .result(let value): BFTask(result: value)
            case .fault(let code): BFTask(error: TestError(code: code))
            case .cancelled: BFTask.cancelled()
            }
        }

        func set(_ source: BFTaskCompletionSource<Int>) {
            switch self {
            case .result(let value): source.set(result: value)
            case .fault(let code): source.set(error: TestError(code: code))
            case .cancelled: source.cancel()
            }
        }
    }

    /// What a finished task reads as.
    static func state<T>(_ task: BFTask<T>) -> String {
        if task.isCancelled { return "cancelled" }
        if let error = task.error as? TestError { return "fault \(error.code)" }
        if let result = task.result { return "result \(result)" }
        return task.isCompleted ? "other" : "pending"
    }

    @Test(arguments: Entry.allCases)
    func continueWithSeesEveryStateAndTransformsIt(entry: Entry) {
        var seen: [String] = []
        for outcome in [Outcome.result(1), .fault(2), .cancelled] {
            let (task, complete) = entry.task(outcome)
            let next = task.continueWith(executor: entry.executor) { (task: BFTask<Int>) -> String in
                Self.state(task)
            }
            complete()
            seen.append(next.result ?? "?")
        }
        #expect(seen == ["result 1", "fault 2", "cancelled"])
    }

    @Test(arguments: Entry.allCases)
    func aBlockRunsOnceAndOnTheCallingThreadBeforeTheCallReturnsIfTheTaskIsCompleted(entry: Entry) {
        let runs = Counter()
        let (task, complete) = entry.task(.result(1))
        let next = task.continueOnSuccessWith(executor: entry.executor) { (succeeded: BFTask<Int>) -> Int in
            let value = succeeded.result!
            runs.increment()
            return value + 1
        }
        #expect(runs.value == (entry.completedFirst ? 1 : 0))
        complete()
        #expect(runs.value == 1 && next.result == 2)
    }

    @Test(arguments: Entry.allCases)
    func throwingFaultsAndCancellationErrorsOrCancelledTasksCancel(entry: Entry) {
        let (task, complete) = entry.task(.result(1))
        let thrown = task.continueWith(executor: entry.executor) { _ -> Int in throw TestError(code: 7) }
        let thrownCancellation = task.continueWith(executor: entry.executor) { _ -> Int in
            throw CancellationError()
        }
        let returnedCancelled = task.continueWithTask(executor: entry.executor) { _ in BFTask<Int>.cancelled() }
        let thrownFromChain = task.continueOnSuccessWithTask(executor: entry.executor) { _ -> BFTask<Int> in
            throw TestError(code: 8)
        }
        complete()
        #expect(Self.state(thrown) == "fault 7")
        #expect(Self.state(thrownCancellation) == "cancelled")
        #expect(Self.state(returnedCancelled) == "cancelled")
        #expect(Self.state(thrownFromChain) == "fault 8")
    }

    @Test(arguments: Entry.allCases)
    func aReturnedTaskIsFollowedWhetherItIsPendingOrCompleted(entry: Entry) {
        let (task, complete) = entry.task(.result(1))
        let inner = BFTaskCompletionSource<Int>()
        let waiting: BFTask<Int> = task.continueWithTask(executor: entry.executor) { _ in inner.task }
        let ready: BFTask<Int> = task.continueOnSuccessWithTask(executor: entry.executor) { succeeded in
            let value = succeeded.result!
            return BFTask(result: value + 10)
        }
        complete()
        #expect(Self.state(waiting) == "pending" && Self.state(ready) == "result 11")
        inner.set(result: 5)
        #expect(Self.state(waiting) == "result 5")
    }

    @Test(arguments: Entry.allCases)
    func aCancellationRequestOnTheNewTaskReachesAPendingReturnedTask(entry: Entry) {
        let (task, complete) = entry.task(.result(1))
        let inner = BFTaskCompletionSource<Int>()
        let asked = Counter()
        inner.cancellationToken.onCancellationRequested { asked.increment() }
        let chained: BFTask<Int> = task.continueWithTask(executor: entry.executor) { _ in inner.task }
        complete()
        chained.future.requestCancellation()
        #expect(asked.value == 1)
        inner.cancel()
        #expect(chained.isCancelled)
    }

    @Test(arguments: Entry.allCases)
    func aSetTokenCancelsWithoutRunningTheBlockInEveryForm(entry: Entry) {
        let tokens = BFCancellationTokenSource()
        tokens.cancel()
        let ran = Counter()
        let (task, complete) = entry.task(.result(1))
        let token = tokens.token
        let voidBlock = task.continueWith(
            executor: entry.executor, block: { _ in ran.increment() }, cancellationToken: token)
        let next: [BFTask<Int>] = [
            task.continueWithTask(
                executor: entry.executor, block: { _ in BFTask(result: 1) }, cancellationToken: token),
            task.continueOnSuccessWith(
                executor: entry.executor, block: { (task: BFTask<Int>) in task.result! }, cancellationToken: token),
            task.continueOnErrorWith(executor: entry.executor, block: { _ in 0 }, cancellationToken: token),
        ]
        complete()
        #expect(voidBlock.isCancelled)
        #expect(next.map(Self.state) == ["cancelled", "cancelled", "cancelled"])
        #expect(ran.value == 0)
    }

    @Test(arguments: Entry.allCases)
    func successBlocksPassFaultsAndCancellationThroughInBothForms(entry: Entry) {
        let ran = Counter()
        var seen: [String] = []
        for outcome in [Outcome.fault(3), .cancelled] {
            let (task, complete) = entry.task(outcome)
            let valueForm = task.continueOnSuccessWith(executor: entry.executor) { (succeeded: BFTask<Int>) -> Int in
                let value = succeeded.result!
                ran.increment()
                return value
            }
            let taskForm = task.continueOnSuccessWith(executor: entry.executor) { (task: BFTask<Int>) -> Int in
                ran.increment()
                return task.result!
            }
            // A task-returning block given to the value form nests (reported at the call), and still passes
            // the fault or the cancellation through.
            var chainForm: BFTask<BFTask<Int>>!
            let reported = diagnostics {
                chainForm = task.continueOnSuccessWith(executor: entry.executor) { (succeeded: BFTask<Int>) in
                    let value = succeeded.result!
                    ran.increment()
                    return BFTask(result: value)
                }
            }
            #expect(reported.count == 1)
            if case .nestedTask(let type, let use, _, _)? = reported.first {
                #expect(type == "BFTask<BFTask<Int>>" && use == "continueOnSuccessWithTask")
            } else {
                Issue.record("got \(reported)")
            }
            complete()
            seen += [Self.state(valueForm), Self.state(taskForm), Self.state(chainForm)]
        }
        #expect(seen == ["fault 3", "fault 3", "fault 3", "cancelled", "cancelled", "cancelled"])
        #expect(ran.value == 0)
    }

    @Test(arguments: Entry.allCases)
    func errorBlocksRecoverFaultsOnlyInBothForms(entry: Entry) {
        var seen: [String] = []
        for outcome in [Outcome.result(5), .fault(1), .cancelled] {
            let (task, complete) = entry.task(outcome)
            let value = task.continueOnErrorWith(executor: entry.executor) { error in
                ((error as? TestError)?.code ?? 0) + 100
            }
            let chained = task.continueOnErrorWith(executor: entry.executor) { error in
                BFTask(result: ((error as? TestError)?.code ?? 0) + 200)
            }
            complete()
            seen += [Self.state(value), Self.state(chained)]
        }
        #expect(seen == ["result 5", "result 5", "result 101", "result 201", "cancelled", "cancelled"])
    }

    @Test(arguments: Entry.allCases)
    func theTaskFormReceivesTheSameTask(entry: Entry) {
        let (task, complete) = entry.task(.result(4))
        let same = task.continueOnSuccessWith(executor: entry.executor) { (received: BFTask<Int>) in
            received.future === task.future
        }
        let sameInContinueWith = task.continueWith(executor: entry.executor) { received in
            received.future === task.future
        }
        complete()
        #expect(same.result == true && sameInContinueWith.result == true)
    }

    @Test(arguments: Entry.allCases)
    func aBlockAndWhatItCapturedAreReleasedOnceItRan(entry: Entry) {
        final class Resource: Sendable {}
        weak var weakResource: Resource?
        let (task, complete) = entry.task(.result(1))
        var next: BFTask<Int>?
        do {
            let resource = Resource()
            weakResource = resource
            next = task.continueOnSuccessWith(executor: entry.executor) { (succeeded: BFTask<Int>) -> Int in
                let value = succeeded.result!
                return withExtendedLifetime(resource) { value }
            }
        }
        complete()
        #expect(next?.result == 1)
        #expect(weakResource == nil)
    }
}
