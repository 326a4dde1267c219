import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

/// What a continuation block was handed: its parameter's type, recorded by the block itself, so a test
/// fails if a call shape picks the other form of `continueOnSuccessWith`.
private final class Handed: Sendable {
    private let seen = Recorder<String>()
    func record<P>(_ parameter: P) { seen.append("\(type(of: parameter))") }
    var types: [String] { seen.values }
}

private let value = "Array<Int>"
private let task = "BFTask<Array<Int>>"

/// Every call shape of the `continue…` family compiles, picks the form it should, and returns the type
/// it should: labels, trailing closures, `$0`, annotated parameters, blocks returning a value, a task or
/// nothing.
@Suite("BFTask: every call shape of continueWith and continueOnSuccessWith")
struct BFTaskContinueShapesTests {
    let numbers = BFTask(result: [3, 4])
    let source = BFCancellationTokenSource()

    // MARK: continueOnSuccessWith: which form runs

    @Test func aBlockThatReadsTheTaskGetsTheTask() {
        let handed = Handed()
        let closureParameter = numbers.continueOnSuccessWith { task in
            handed.record(task)
            return task.result![0]
        }
        let dollarZero = numbers.continueOnSuccessWith { $0.result!.count }
        #expect(closureParameter.result == 3 && dollarZero.result == 2)
        #expect(handed.types == [task])
    }

    @Test func aBlockThatUsesTheValueGetsTheValue() {
        let handed = Handed()
        let closureParameter = numbers.continueOnSuccessWith { succeeded in
            let students = succeeded.result!
            handed.record(students)
            return students[1]
        }
        let dollarZero = numbers.continueOnSuccessWith { $0.result!.count }
        #expect(closureParameter.result == 4 && dollarZero.result == 2)
        #expect(handed.types == [value])
    }

    @Test func annotatedParametersChooseTheirForm() {
        let handed = Handed()
        let asTask = numbers.continueOnSuccessWith { (task: BFTask<[Int]>) -> Int in
            handed.record(task)
            return task.result!.count
        }
        // Bolts' guide wrote `(task: BFTask!)`: an implicitly unwrapped task still gets the task.
        let asUnwrappedTask = numbers.continueOnSuccessWith { (task: BFTask<[Int]>!) -> Int in
            handed.record(task!)
            return task.result!.count
        }
        let asValue = numbers.continueOnSuccessWith { (succeeded: BFTask<[Int]>) -> Int in
            let students = succeeded.result!
            handed.record(students)
            return students.count
        }
        #expect(asTask.result == 2 && asUnwrappedTask.result == 2 && asValue.result == 2)
        #expect(handed.types == [task, task, value])
    }

    @Test func aBlockThatFitsBothFormsGetsTheValue() {
        let handed = Handed()
        numbers.continueOnSuccessWith { handed.record($0.result!) }
        let ignoring = numbers.continueOnSuccessWith { _ in "done" }
        let identity = numbers.continueOnSuccessWith { $0.result! }
        #expect(handed.types == [value])
        #expect(ignoring.result == "done")
        #expect(type(of: identity) == BFTask<[Int]>.self && identity.result == [3, 4])
    }

    @Test func labelledAndTrailingTokenShapesKeepTheirForm() {
        let handed = Handed()
        let shapes: [BFTask<Int>] = [
            numbers.continueOnSuccessWith(block: { task in
                handed.record(task)
                return task.result!.count
            }),
            numbers.continueOnSuccessWith(block: {
                handed.record($0.result!)
                return $0.result!.count
            }),
            numbers.continueOnSuccessWith(executor: .immediate, block: { (task: BFTask<[Int]>) in task.result![0] }),
            numbers.continueOnSuccessWith(
                executor: .immediate,
                block: { (task: BFTask<[Int]>) in
                    handed.record(task)
                    return task.result![1]
                },
                cancellationToken: source.token),
            numbers.continueOnSuccessWith(cancellationToken: source.token) { task in
                handed.record(task)
                return task.result![0]
            },
            numbers.continueOnSuccessWith(executor: .immediate, cancellationToken: source.token) { succeeded in
                let students = succeeded.result!
                handed.record(students)
                return students[1]
            },
        ]
        #expect(shapes.map(\.result) == [2, 2, 3, 4, 3, 4])
        #expect(handed.types == [task, value, task, task, value])
    }

    /// In a chain the compiler weighs every call together: annotated task blocks must not make it nest
    /// the first task (so that the second block could receive it as a *value*).
    @Test func aChainOfAnnotatedTaskBlocksChainsAndSkipsAfterAFault() {
        let ran = Counter()
        let chain = numbers.continueOnSuccessWithTask { (task: BFTask<[Int]>) -> BFTask<[Int]> in
            BFTask(error: TestError(code: 5))
        }.continueOnSuccessWithTask { (task: BFTask<[Int]>) -> BFTask<[Int]> in
            ran.increment()
            return task
        }
        #expect(type(of: chain) == BFTask<[Int]>.self)
        #expect((chain.error as? TestError)?.code == 5 && ran.value == 0)
    }

    @Test func anOptionalValueIsComparedAsTheValue() {
        let handed = Handed()
        let nothing = BFTask<[Int]?>(result: nil).continueOnSuccessWith { succeeded in
            let result = succeeded.result!
            handed.record(result)
            return result == nil ? "nil" : "some"
        }
        #expect(nothing.result == "nil" && handed.types == ["Optional<Array<Int>>"])
    }

    // MARK: continueOnSuccessWith: what the block returns

    @Test func returningATaskChainsInBothForms() {
        let next = BFTaskCompletionSource<String>()
        let fromTask = numbers.continueOnSuccessWithTask { (task: BFTask<[Int]>) -> BFTask<String> in next.task }
        let fromTaskUnannotated = numbers.continueOnSuccessWithTask { task in
            _ = task.result!
            return next.task
        }
        let fromValue = numbers.continueOnSuccessWithTask { _ in next.task }
        let fromValueWithToken = numbers.continueOnSuccessWithTask(cancellationToken: source.token) {
            (succeeded: BFTask<[Int]>) in
            _ = succeeded.result!
            return next.task
        }
        let fromTaskWithToken = numbers.continueOnSuccessWithTask(cancellationToken: source.token) { task in
            task.isCompleted ? next.task : BFTask<String>.cancelled()
        }
        let all = [fromTask, fromTaskUnannotated, fromValue, fromValueWithToken, fromTaskWithToken]
        #expect(all.allSatisfy { !$0.isCompleted }, "each waits for the returned task: BFTask<String>, not nested")
        next.set(result: "saved")
        #expect(all.allSatisfy { $0.result == "saved" })
    }

    @Test func returningNothingGivesAVoidTaskInBothForms() {
        let runs = Counter()
        func valueForm() -> BFTask<Void> {
            numbers.continueOnSuccessWith { succeeded in
                let students = succeeded.result!
                runs.increment()
                runs.increment(by: students.count)
            }
        }
        func taskForm() -> BFTask<Void> {
            numbers.continueOnSuccessWith(cancellationToken: source.token) { task in
                runs.increment()
                runs.increment(by: task.result!.count)
            }
        }
        let annotated = numbers.continueOnSuccessWith { (task: BFTask<[Int]>) -> Void in runs.increment() }
        let single = numbers.continueOnSuccessWith { _ in runs.increment() }
        #expect(valueForm().isCompleted && taskForm().isCompleted && annotated.isCompleted)
        #expect(type(of: single) == BFTask<Int>.self, "`increment()` returns the new count")
        #expect(runs.value == 8)
    }

    @Test func bothFormsSkipFaultsAndCancellation() {
        let ran = Counter()
        let faulted = BFTask<[Int]>(error: TestError(code: 1))
        let skippedTask = faulted.continueOnSuccessWith { (task: BFTask<[Int]>) -> Int in ran.increment() }
        let skippedValue = faulted.continueOnSuccessWith { (_: BFTask<[Int]>) -> Int in ran.increment() }
        let cancelled = BFTask<[Int]>.cancelled().continueOnSuccessWith { task in task.result!.count }
        #expect((skippedTask.error as? TestError)?.code == 1 && (skippedValue.error as? TestError)?.code == 1)
        #expect(cancelled.isCancelled && ran.value == 0)
        source.cancel()
        let tokenCancelled = numbers.continueOnSuccessWith(cancellationToken: source.token) { task in
            ran.increment()
            return task.result!.count
        }
        #expect(tokenCancelled.isCancelled && ran.value == 0)
    }

    @Test func aThrowingTaskFormBlockFaults() {
        let thrown = numbers.continueOnSuccessWith { (task: BFTask<[Int]>) -> Int in throw TestError(code: 9) }
        let cancelling = numbers.continueOnSuccessWith { task -> Int in
            if task.result!.isEmpty { return 0 }
            throw CancellationError()
        }
        #expect((thrown.error as? TestError)?.code == 9 && cancelling.isCancelled)
    }

    // MARK: continueWith: every shape

    @Test func continueWithShapes() {
        let text = BFTask(result: "x")
        let value: [BFTask<Int>] = [
            numbers.continueWith { $0.result!.count },
            numbers.continueWith { task in task.result![0] },
            numbers.continueWith { (task: BFTask<[Int]>) -> Int in task.result![1] },
            numbers.continueWith(block: { $0.result!.count }),
            numbers.continueWith(executor: .immediate, block: { _ in 7 }),
            numbers.continueWith(executor: .immediate, block: { _ in 8 }, cancellationToken: source.token),
            numbers.continueWith(cancellationToken: source.token) { _ in 9 },
            numbers.continueWith(executor: .immediate, cancellationToken: source.token) { _ in 10 },
        ]
        #expect(value.map(\.result) == [2, 3, 4, 2, 7, 8, 9, 10])
        let chained: [BFTask<String>] = [
            numbers.continueWithTask { _ in text },
            numbers.continueWithTask { (task: BFTask<[Int]>) -> BFTask<String> in text },
            numbers.continueWithTask(block: { _ in text }, cancellationToken: source.token),
            numbers.continueWithTask(cancellationToken: source.token) { _ in text },
        ]
        #expect(chained.map(\.result) == ["x", "x", "x", "x"])
        let runs = Counter()
        func nothing() -> BFTask<Void> {
            numbers.continueWith(cancellationToken: source.token) { _ in
                runs.increment()
                runs.increment()
            }
        }
        let annotatedNothing = numbers.continueWith { (_: BFTask<[Int]>) -> Void in runs.increment() }
        #expect(nothing().isCompleted && annotatedNothing.isCompleted && runs.value == 3)
    }

    @Test func continueOnErrorWithShapes() {
        let faulted = BFTask<Int>(error: TestError(code: 4))
        let recovered = faulted.continueOnErrorWith { error in (error as? TestError)?.code ?? 0 }
        let chained = faulted.continueOnErrorWith { _ in BFTask(result: 5) }
        let labelled = faulted.continueOnErrorWith(
            executor: .immediate, block: { _ in 6 }, cancellationToken: source.token)
        let passedThrough = BFTask(result: 1).continueOnErrorWith { _ in 0 }
        #expect(recovered.result == 4 && chained.result == 5 && labelled.result == 6 && passedThrough.result == 1)
    }
}
