import Bolts
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
// is the line the face records. The checks are the ones every task face shares (`TaskFace` in
// FuturesTestSupport); this file gives them the face's dialect.

private enum Boom: Error {
    case boom
}

private let thisFile = "BoltsTests/EveryWayToMakeATaskTests.swift"

/// A row's task, as the shared checks see it.
private typealias Made = MadeTask
/// One public way to make a task from an input task.
private typealias Way = TaskWay<BFTask<Int>>
/// One public way to make a task without an input task: it runs on the executor it is given.
private typealias Producer = TaskProducer<BFExecutor>

extension MadeTask {
    /// A row's `BFTask`, as its core future.
    fileprivate init<T>(_ task: BFTask<T>) {
        self.init(task.future)
    }
}

/// The input's outcome, thrown when it faulted: a continuation that passes a fault on.
private func passedOn(_ task: BFTask<Int>) throws -> Int {
    if let error = task.error { throw error }
    return task.result ?? 0
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

// swift-format-ignore
private let producers: [Producer] = [
    Producer("BFTask", #line) { Made(BFTask<Int>(executor: $0) { () throws -> Int in throw Boom.boom }) },
    Producer("BFTask", #line) { Made(BFTask<Int>(executor: $0) { () throws -> BFTask<Int> in BFTask(error: Boom.boom) }) },
    Producer("delay", #line, fails: false) { _ in Made(BFTask(delay: 3_600_000)) },
    Producer("BFTaskCompletionSource", #line) { let source = BFTaskCompletionSource<Int>(); $0.context.execute { source.set(error: Boom.boom) }; return Made(source.task) },
]

/// Bolts' dialect, for the shared checks.
private let face = TaskFace(
    file: thisFile,
    writeEnd: "BFTaskCompletionSource",
    source: { BFTaskCompletionSource<Int>(file: $0, line: $1) },
    task: { $0.task },
    succeed: { $0.set(result: 1) },
    fail: { $0.set(error: Boom.boom) },
    faulted: { BFTask<Int>(error: Boom.boom) },
    future: { $0.future },
    immediate: BFExecutor.immediate,
    holding: { held in BFExecutor { held.hold($0) } }
)

@Suite("Bolts: every way to make a BFTask, linked, named and asked through the core's primitives", .hangGuard())
struct EveryWayToMakeATaskTests {
    @Test(arguments: ways)
    fileprivate func aRequestReachesTheInputAsOneConsumersAsk(_ way: Way) {
        face.expectARequestReachesTheInputAsOneConsumersAsk(way)
    }

    @Test(arguments: ways)
    fileprivate func theFailureTraceNamesTheStepAtItsCallersLine(_ way: Way) {
        face.expectTheFailureTraceNamesTheStepAtItsCallersLine(way)
    }

    @Test(arguments: producers)
    fileprivate func theFailureTraceOfAProducerNamesItsStepAtItsCallersLine(_ producer: Producer) {
        face.expectTheFailureTraceOfAProducerNamesItsStepAtItsCallersLine(producer)
    }

    /// A task made completed (`init(result:)`, `init(error:)`, `cancelled()`) records what the core's
    /// completed future records: no producer step, so a faulted one has no failure trace, as
    /// `Future(error:)` has none.
    @Test func aTaskMadeCompletedRecordsWhatTheCoresCompletedFutureRecords() {
        FuturesDiagnostics.withFailureTracing {
            let core = Future<Int, any Error>(error: Boom.boom)
            let faulted = BFTask<Int>(error: Boom.boom)
            let cancelled = BFTask<Int>.cancelled()
            let succeeded = BFTask<Int>(result: 1)
            _ = (core.result, faulted.future.result, cancelled.future.result)
            #expect(core.failureTrace == nil)
            #expect(faulted.future.failureTrace == core.failureTrace)
            #expect(cancelled.future.failureTrace == core.failureTrace)
            #expect(succeeded.future.failureTrace == nil)
        }
    }

    /// Tracking is process-wide, so it is turned on in a child process of its own.
    @Test func theReportListsEachTaskAtItsCallersLine() async {
        let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            face.requireEveryWayIsListedUnderItsInput(ways)
            face.requireEveryProducerIsListed(producers)
        }
        expectChildPassed(child)
    }
}
