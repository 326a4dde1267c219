import Bolts
import Synchronization
import Testing

@testable import Futures

// Every way the face makes a `BFTask` goes through the core's primitives (`derive`, the one gatherer,
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

private let thisFile = "BoltsTests/EveryWayToMakeATaskTests.swift"

/// A task made by one row, with what the checks need of it, whatever its type.
private struct Made {
    let requestCancellation: @Sendable () -> Void
    let failureTrace: @Sendable () -> FailureTrace?
    let keep: AnyObject

    init<T>(_ task: BFTask<T>) {
        let future = task.future
        requestCancellation = { future.requestCancellation() }
        failureTrace = {
            _ = future.result  // looked at: no unobserved-failure report
            return future.failureTrace
        }
        keep = future
    }
}

/// The input's outcome, thrown when it faulted: a continuation that passes a fault on.
private func passedOn(_ task: BFTask<Int>) throws -> Int {
    if let error = task.error { throw error }
    return task.result ?? 0
}

/// One public way to make a task from an input task.
private struct Way: Sendable, CustomTestStringConvertible {
    let step: String
    let line: Int
    let make: @Sendable (BFTask<Int>) -> Made

    init(_ step: String, _ line: Int, _ make: @escaping @Sendable (BFTask<Int>) -> Made) {
        self.step = step
        self.line = line
        self.make = make
    }

    var testDescription: String { "\(step) (line \(line))" }
}

private let token = BFCancellationTokenSource().token

// swift-format-ignore
private let ways: [Way] = [
    Way("continueWith", #line) { Made($0.continueWith(executor: .immediate) { try passedOn($0) }) },
    Way("continueWith", #line) { Made($0.continueWith { try passedOn($0) }) },
    Way("continueWith", #line) { Made($0.continueWith(executor: .immediate, cancellationToken: token) { try passedOn($0) }) },
    Way("continueWithTask", #line) { Made($0.continueWithTask(executor: .immediate) { BFTask(result: try passedOn($0)) }) },
    Way("continueWithTask", #line) { Made($0.continueWithTask(cancellationToken: token) { BFTask(result: try passedOn($0)) }) },
    Way("continueOnSuccessWith", #line) { Made($0.continueOnSuccessWith(executor: .immediate) { $0.result! + 1 }) },
    Way("continueOnSuccessWith", #line) { Made($0.continueOnSuccessWith(cancellationToken: token) { _ in () }) },
    Way("continueOnSuccessWithTask", #line) { Made($0.continueOnSuccessWithTask(executor: .immediate) { $0 }) },
    Way("continueOnSuccessWithTask", #line) { Made($0.continueOnSuccessWithTask(cancellationToken: token) { $0 }) },
    Way("continueOnErrorWith", #line) { Made($0.continueOnErrorWith(executor: .immediate) { error -> Int in throw error }) },
    Way("continueOnErrorWith", #line) { Made($0.continueOnErrorWith { error -> BFTask<Int> in BFTask(error: error) }) },
    Way("forCompletionOfAllTasks", #line) { Made(BFTask(forCompletionOfAllTasks: [$0])) },
    Way("forCompletionOfAllTasksWithResults", #line) { Made(BFTask(forCompletionOfAllTasksWithResults: [$0])) },
    Way("forCompletionOfAllTasksWithResults", #line) { Made(BFTask<[any Sendable]>(forCompletionOfAllTasksWithResults: [$0 as any BFTaskProtocol])) },
    Way("forCompletionOfAnyTask", #line) { Made(BFTask(forCompletionOfAnyTask: [$0])) },
    Way("forCompletionOfAnyTask", #line) { Made(BFTask<Void>(forCompletionOfAnyTask: [$0 as any BFTaskProtocol])) },
    Way("forCompletionOfAnyTask", #line) { Made(BFTask<any Sendable>(forCompletionOfAnyTask: [$0 as any BFTaskProtocol])) },
]

/// An executor that keeps the closures it is given until ``runAll()``: a task made on it stays pending.
private final class HeldWork: Sendable {
    private let work = Mutex<[@Sendable () -> Void]>([])

    var executor: BFExecutor {
        BFExecutor { [self] closure in work.withLock { $0.append(closure) } }
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
    let make: @Sendable (BFExecutor) -> Made

    init(_ step: String, _ line: Int, fails: Bool = true, _ make: @escaping @Sendable (BFExecutor) -> Made) {
        self.step = step
        self.line = line
        self.fails = fails
        self.make = make
    }

    var testDescription: String { "\(step) (line \(line))" }
}

// swift-format-ignore
private let producers: [Producer] = [
    Producer("BFTask", #line) { Made(BFTask<Int>(executor: $0) { () throws -> Int in throw Boom.boom }) },
    Producer("BFTask", #line) { Made(BFTask<Int>(executor: $0) { () throws -> BFTask<Int> in BFTask(error: Boom.boom) }) },
    Producer("delay", #line, fails: false) { _ in Made(BFTask(delay: 3_600_000)) },
]

@Suite("Bolts: every way to make a BFTask, linked, named and asked through the core's primitives", .hangGuard())
struct EveryWayToMakeATaskTests {
    @Test(arguments: ways)
    fileprivate func aRequestReachesTheInputAsOneConsumersAsk(_ way: Way) {
        let source = BFTaskCompletionSource<Int>()
        let asked = Atomic<Int>(0)
        source.task.future.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        let other = source.task.future.consumer()
        let made = way.make(source.task)
        made.requestCancellation()
        // Another consumer still waits: the made task's request is one ask, not a request.
        #expect(asked.load(ordering: .relaxed) == 0)
        other.requestCancellation()
        // Every consumer has asked now.
        #expect(asked.load(ordering: .relaxed) == 1)
        source.set(error: Boom.boom)
        // Looked at: no unobserved-failure report.
        _ = (made.failureTrace(), other.result, source.task.future.result)
    }

    @Test(arguments: ways)
    fileprivate func theFailureTraceNamesTheStepAtItsCallersLine(_ way: Way) {
        FuturesDiagnostics.withFailureTracing {
            // A pending input that faults later.
            let source = BFTaskCompletionSource<Int>()
            let made = way.make(source.task)
            source.set(error: Boom.boom)
            expectEndsWithTheStep(made.failureTrace(), way.step, way.line)
            // An input that has faulted already.
            expectEndsWithTheStep(way.make(BFTask(error: Boom.boom)).failureTrace(), way.step, way.line)
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
        let source = BFTaskCompletionSource<Int>()
        let sourceLine = UInt(#line - 1)
        let made = way.make(source.task)
        let chains = FuturesDiagnostics.pendingFutures()
        let chain = chains.first { $0.site.line == sourceLine && $0.site.file == thisFile }
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
