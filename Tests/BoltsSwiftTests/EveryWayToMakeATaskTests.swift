import BoltsSwift
import Synchronization
import Testing

@testable import Futures

// Every way the face makes a task goes through the core's primitives (`derive(after:)`, the one gatherer,
// the one timer), at its caller's file and line, so each of them, whatever its path:
// - is listed by the pending-futures report (under its input, for a continuation or a gathering), at its
//   caller's file and line;
// - names its step at its caller's file and line in a failure trace, for a pending and for an already
//   faulted input;
// - passes a cancellation request on to its input as one consumer's ask (shared work that another
//   consumer still waits for keeps running).
// The tables hold one row per way; each row's call is on the row's own line, so that the row's `#line`
// is the line the face records.

private enum Boom: Error {
    case boom
}

private let thisFile = "BoltsSwiftTests/EveryWayToMakeATaskTests.swift"

/// A task made by one row, with what the checks need of it, whatever its type.
private struct Made {
    let requestCancellation: @Sendable () -> Void
    let failureTrace: @Sendable () -> FailureTrace?
    let keep: AnyObject

    init<T>(_ task: Task<T>) {
        requestCancellation = { task.requestCancellation() }
        failureTrace = {
            _ = task.result  // looked at: no unobserved-failure report
            return task.failureTrace
        }
        keep = task
    }
}

/// The input's outcome, thrown when it faulted: a continuation that passes a fault on.
private func passedOn(_ task: Task<Int>) throws -> Int {
    if let error = task.error { throw error }
    return task.result ?? 0
}

/// One public way to make a task from an input task.
private struct Way: Sendable, CustomTestStringConvertible {
    let step: String
    let line: Int
    /// Whether the made task faults as soon as its input faults (`whenAny` succeeds whatever its input's
    /// outcome).
    let failsAtOnce: Bool
    let make: @Sendable (Task<Int>) -> Made

    init(_ step: String, _ line: Int, failsAtOnce: Bool = true, _ make: @escaping @Sendable (Task<Int>) -> Made) {
        self.step = step
        self.line = line
        self.failsAtOnce = failsAtOnce
        self.make = make
    }

    var testDescription: String { "\(step) (line \(line))" }
}

// swift-format-ignore
private let ways: [Way] = [
    Way("continueWith", #line) { Made($0.continueWith(.immediate) { try passedOn($0) }) },
    Way("continueWith", #line) { Made($0.continueWith { try passedOn($0) }) },
    Way("continueWithTask", #line) { Made($0.continueWithTask(.immediate) { Task(try passedOn($0)) }) },
    Way("continueOnSuccessWith", #line) { Made($0.continueOnSuccessWith(.immediate) { $0 + 1 }) },
    Way("continueOnSuccessWith", #line) { Made($0.continueOnSuccessWith { _ in () }) },
    Way("continueOnSuccessWithTask", #line) { Made($0.continueOnSuccessWithTask(.immediate) { Task($0 + 1) }) },
    Way("continueOnErrorWith", #line) { Made($0.continueOnErrorWith(.immediate) { (error: Boom) in throw error }) },
    Way("continueOnErrorWith", #line) { Made($0.continueOnErrorWith(.immediate) { error in throw error }) },
    Way("continueOnErrorWithTask", #line) { Made($0.continueOnErrorWithTask(.immediate) { (error: Boom) in Task(error: error) }) },
    Way("continueOnErrorWithTask", #line) { Made($0.continueOnErrorWithTask(.immediate) { error in Task(error: error) }) },
    Way("whenAll", #line) { Made(Task.whenAll([$0])) },
    Way("whenAll", #line) { Made(Task.whenAll($0)) },
    Way("whenAllResult", #line) { Made(Task.whenAllResult([$0])) },
    Way("whenAllResult", #line) { Made(Task.whenAllResult($0)) },
    Way("whenAny", #line, failsAtOnce: false) { Made(Task.whenAny([$0])) },
    Way("whenAny", #line, failsAtOnce: false) { Made(Task.whenAny($0)) },
]

/// An executor that keeps the closures it is given until ``runAll()``: a task made on it stays pending.
private final class HeldWork: Sendable {
    private let work = Mutex<[@Sendable () -> Void]>([])

    var executor: Executor {
        .escapingClosure { [self] closure in work.withLock { $0.append(closure) } }
    }

    func runAll() {
        for closure in work.withLock({ work in
            defer { work = [] }
            return work
        }) { closure() }
    }
}

/// One public way to make a task without an input task: it runs on the executor it is given.
private struct Producer: Sendable, CustomTestStringConvertible {
    let step: String
    let line: Int
    /// Whether the made task faults when its closure runs (a delay succeeds).
    let fails: Bool
    let make: @Sendable (Executor) -> Made

    init(_ step: String, _ line: Int, fails: Bool = true, _ make: @escaping @Sendable (Executor) -> Made) {
        self.step = step
        self.line = line
        self.fails = fails
        self.make = make
    }

    var testDescription: String { "\(step) (line \(line))" }
}

// swift-format-ignore
private let producers: [Producer] = [
    Producer("Task", #line) { Made(Task<Int>($0) { throw Boom.boom }) },
    Producer("Task", #line) { Made(Task<Int>.execute($0) { throw Boom.boom }) },
    Producer("executeWithTask", #line) { Made(Task<Int>.executeWithTask($0) { Task(error: Boom.boom) }) },
    Producer("withDelay", #line, fails: false) { _ in Made(Task<Int>.withDelay(3_600)) },
]

@Suite("BoltsSwift: every way to make a task, linked, named and asked through the core's primitives", .hangGuard())
struct EveryWayToMakeATaskTests {
    @Test(arguments: ways)
    fileprivate func aRequestReachesTheInputAsOneConsumersAsk(_ way: Way) {
        let source = TaskCompletionSource<Int>()
        let asked = Atomic<Int>(0)
        source.task.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        let other = source.task.consumer()
        let made = way.make(source.task)
        made.requestCancellation()
        // Another consumer still waits: the made task's request is one ask, not a request.
        #expect(asked.load(ordering: .relaxed) == 0)
        other.requestCancellation()
        // Every consumer has asked now.
        #expect(asked.load(ordering: .relaxed) == 1)
        source.set(error: Boom.boom)
        withExtendedLifetime(made.keep) {}
    }

    @Test(arguments: ways)
    fileprivate func theFailureTraceNamesTheStepAtItsCallersLine(_ way: Way) {
        guard way.failsAtOnce else { return }
        FuturesDiagnostics.withFailureTracing {
            // A pending input that faults later.
            let source = TaskCompletionSource<Int>()
            let made = way.make(source.task)
            source.set(error: Boom.boom)
            expectEndsWithTheStep(made.failureTrace(), way.step, way.line)
            // An input that has faulted already.
            expectEndsWithTheStep(way.make(Task(error: Boom.boom)).failureTrace(), way.step, way.line)
        }
    }

    @Test(arguments: producers)
    fileprivate func theFailureTraceOfAProducerNamesItsStepAtItsCallersLine(_ producer: Producer) {
        guard producer.fails else { return }
        FuturesDiagnostics.withFailureTracing {
            // Run at once.
            expectEndsWithTheStep(producer.make(.immediate).failureTrace(), producer.step, producer.line)
            // Run later.
            let held = HeldWork()
            let made = producer.make(held.executor)
            held.runAll()
            expectEndsWithTheStep(made.failureTrace(), producer.step, producer.line)
        }
    }

    @Test func theReportListsEachTaskAtItsCallersLine() async {
        await #expect(processExitsWith: .success) {
            everyWayIsListedUnderItsInput()
            everyProducerIsListed()
        }
    }
}

private func expectEndsWithTheStep(_ trace: FailureTrace?, _ step: String, _ line: Int) {
    expectTrace(trace, endsWith: step, at: thisFile, line: line)
}

/// In the child process of ``EveryWayToMakeATaskTests/theReportListsEachTaskAtItsCallersLine()``:
/// tracking is process-wide, so it is turned on in a process of its own; checks with `precondition`.
private func everyWayIsListedUnderItsInput() {
    FuturesDiagnostics.tracksPendingFutures = true
    for way in ways {
        let source = TaskCompletionSource<Int>()
        let sourceLine = UInt(#line - 1)
        let made = way.make(source.task)
        let chains = FuturesDiagnostics.pendingFutures()
        let chain = chains.first { $0.site.name == "TaskCompletionSource" && $0.site.line == sourceLine }
        precondition(chain != nil, "\(way): no chain for its input in \(chains)")
        let listed = chain!.dependents.first {
            $0.site.name == way.step && $0.site.file == thisFile && $0.site.line == UInt(way.line)
        }
        precondition(listed != nil, "\(way) is not listed under its input: \(chain!)")
        precondition(!listed!.waitsOn.isEmpty, "\(way) waits for nothing: \(chain!)")
        source.set(result: 1)
        withExtendedLifetime(made.keep) {}
        precondition(
            FuturesDiagnostics.pendingFutures().allSatisfy { $0.site.line != sourceLine },
            "\(way) left a pending task: \(FuturesDiagnostics.pendingFutures())")
    }
}

/// In the same child process: a task made on an executor that has not run its closure yet is listed at
/// its caller's line, and is no longer once the closure has run (a delay stays pending).
private func everyProducerIsListed() {
    FuturesDiagnostics.tracksPendingFutures = true
    for producer in producers {
        let held = HeldWork()
        let made = producer.make(held.executor)
        let isListed = {
            FuturesDiagnostics.pendingFutures().contains { chain in
                ([chain.site] + chain.dependents.map(\.site)).contains {
                    $0.name == producer.step && $0.file == thisFile && $0.line == UInt(producer.line)
                }
            }
        }
        precondition(isListed(), "\(producer) is not listed: \(FuturesDiagnostics.pendingFutures())")
        held.runAll()
        withExtendedLifetime(made.keep) {}
        precondition(!producer.fails || !isListed(), "\(producer) left a pending task")
    }
}
