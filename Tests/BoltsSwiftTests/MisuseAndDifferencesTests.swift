import BoltsSwift
import Foundation
import Testing

@testable import Futures

// The misuse outcomes of a `TaskCompletionSource`, and the deliberate differences from Bolts-Swift that
// the migration article lists, each shown.

@Suite("BoltsSwift: misuse and deliberate differences")
struct MisuseAndDifferencesTests {
    /// Bolts-Swift stopped the process (`preconditionFailure`); here the first outcome stays and the call
    /// is reported (GUARANTEES.md G10).
    @Test func settingACompletedTaskKeepsTheFirstOutcomeAndIsReported() {
        let source = TaskCompletionSource<String>()
        let reports = diagnostics {
            source.set(result: "first")
            source.set(result: "second")
            source.set(error: TestError())
            source.cancel()
        }
        #expect(source.task.result == "first")
        #expect(reports.count == 3)
        #expect(
            reports.allSatisfy {
                if case .promiseCompletedTwice = $0 { true } else { false }
            })
    }

    /// As in Bolts-Swift: the `try…` forms return `false` on a completed task, and report nothing.
    @Test func theTryFormsReturnFalseOnACompletedTask() {
        let source = TaskCompletionSource<String>()
        let reports = diagnostics {
            #expect(source.tryCancel())
            #expect(!source.trySet(result: "late"))
            #expect(!source.trySet(error: TestError()))
            #expect(!source.tryCancel())
        }
        #expect(source.task.cancelled)
        #expect(reports.isEmpty)
    }

    /// Bolts-Swift left the task pending for ever; here it faults with `FuturesError.brokenPromise` and the
    /// drop is reported.
    @Test func droppingASourceFaultsItsTaskAndIsReported() {
        var task: Task<Int>?
        let line: UInt = #line + 2
        let reports = diagnostics {
            let source = TaskCompletionSource<Int>()
            task = source.task
        }
        #expect(task?.error as? FuturesError == .brokenPromise)
        #expect(
            reports.contains {
                if case .promiseDropped(let type, let file, let reported) = $0 {
                    type == "TaskCompletionSource<Int>" && file == "\(#fileID)" && reported == line
                } else {
                    false
                }
            }, "the report names the source and the line that made it: \(reports)")
    }

    /// The library's cancellation errors (`FuturesError.cancelled`, Swift's `CancellationError`) cancel
    /// wherever they appear; Bolts-Swift knew only its `CancelledError`, thrown from a closure. A task given
    /// a `CancelledError` faults with it, as in Bolts-Swift.
    @Test func theLibrarysCancellationErrorsCancel() {
        #expect(Task<Int>(error: FuturesError.cancelled).cancelled)
        #expect(Task(1).continueWith(.immediate) { _ -> Int in throw CancellationError() }.cancelled)
        let given = Task<Int>(error: CancelledError())
        #expect(given.faulted && !given.cancelled)
        #expect(Task(1).continueWith(.immediate) { _ -> Int in throw CancelledError() }.cancelled)
    }

    /// Bolts-Swift handed a fault or a cancellation straight to the next task without the executor; here
    /// every continuation, whatever its form, is handed to its executor once its task completes, so a
    /// pass-through also completes there.
    @Test func aPassThroughCompletesOnTheContinuationsExecutor() async throws {
        let queue = DispatchQueue(label: "bolts.pass-through")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        queue.suspend()  // so that the next continuation is added before the pass-through completes
        let failed = Task<Int>(error: TestError())
        let passed = failed.continueOnSuccessWith(.queue(queue)) { $0 + 1 }
        let seen = passed.continueWith(.immediate) { _ in DispatchQueue.getSpecific(key: key) }
        #expect(!passed.completed)
        queue.resume()
        #expect(try await seen.future.get() == 1)
        #expect(passed.faulted)
    }

    /// Like every failed future of the library, a faulted task that nobody looked at is reported when it is
    /// deallocated; one whose error was read is not.
    @Test func aFaultNobodyLookedAtIsReported() {
        let reports = diagnostics {
            _ = Task<Int>(error: TestError(code: 1))
            _ = Task<Int>(error: TestError(code: 2)).error
        }
        let unobserved = reports.filter {
            if case .unobservedFailure = $0 { true } else { false }
        }
        #expect(unobserved.count == 1)
    }

    /// A tiny, zero or negative delay completes, from the timer; one that is not finite waits for ever
    /// instead of trapping.
    @Test func withDelayCompletesForTinyDelaysAndWaitsForeverForInfiniteOnes() async throws {
        for delay in [0.0001, 0, -1] {
            let delayed = Task<Void>.withDelay(delay)
            try await delayed.get()
            #expect(delayed.completed && !delayed.faulted)
        }
        #expect(!Task<Void>.withDelay(.infinity).completed)
        #expect(!Task<Void>.withDelay(.nan).completed)
    }

    /// A task is a core future (the same object), and a task made from a future follows it as one of its
    /// consumers.
    @Test func aTaskIsAFuture() async throws {
        let promise = Promise<Int, any Error>()
        let task = Task(future: promise.future)
        #expect(task.future === task)
        let doubled: Future<Int, any Error> = task.continueOnSuccessWith { $0 * 2 }
        promise.success(3)
        #expect(try await doubled.get() == 6)
        #expect(try await task.map { $0 + 1 }.get() == 4)
    }

    /// A task made from a future that is dropped before it completes faults with
    /// `FuturesError.brokenPromise` (Bolts-Swift had no such tasks), so its continuations run.
    @Test func aTaskOfADroppedFutureFaultsAsABrokenPromise() {
        let seen = Recorder<String>()
        do {
            let task = Task(future: Future<Int, any Error>())
            task.continueWith(.immediate) { task in seen.append("\(task.error.map { "\($0)" } ?? "none")") }
        }
        #expect(seen.values == ["\(FuturesError.brokenPromise)"])
    }

    /// Every continuation returns a task of its own, as in Bolts-Swift: also one that returns `Void` on
    /// `.immediate` over a completed task.
    @Test func everyContinuationReturnsATaskOfItsOwn() {
        let first = Task(1).continueWith(.immediate) { _ in }
        let second = Task(2).continueOnSuccessWith(.immediate) { _ in }
        #expect(first !== second)
        #expect(first.completed && !first.faulted && !first.cancelled && first.result != nil)
        #expect(second.completed && !second.faulted && !second.cancelled && second.result != nil)
        let succeeded = Task<Void>(())
        let passedOn = succeeded.continueOnErrorWith(.immediate) { (_: any Error) in }
        #expect(passedOn !== succeeded && passedOn !== first && passedOn.completed && !passedOn.faulted)
        let source = TaskCompletionSource<Int>()
        let pending = source.task.continueWith(.immediate) { _ in }
        source.set(result: 1)
        #expect(pending.completed && pending !== first)
    }
}
