import BoltsSwift
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
// is the line the face records. The checks are the ones every task face shares (`TaskFace` in
// FuturesTestSupport); this file gives them the face's dialect.

private enum Boom: Error {
    case boom
}

private let thisFile = "BoltsSwiftTests/EveryWayToMakeATaskTests.swift"

/// A row's task, as the shared checks see it.
private typealias Made = MadeTask
/// One public way to make a task from an input task.
private typealias Way = TaskWay<Task<Int>>
/// One public way to make a task without an input task: it runs on the executor it is given.
private typealias Producer = TaskProducer<Executor>

/// The input's outcome, thrown when it faulted: a continuation that passes a fault on.
private func passedOn(_ task: Task<Int>) throws -> Int {
    if let error = task.error { throw error }
    return task.result ?? 0
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

// swift-format-ignore
private let producers: [Producer] = [
    Producer("Task", #line) { Made(Task<Int>($0) { throw Boom.boom }) },
    Producer("Task", #line) { Made(Task<Int>.execute($0) { throw Boom.boom }) },
    Producer("executeWithTask", #line) { Made(Task<Int>.executeWithTask($0) { Task(error: Boom.boom) }) },
    Producer("withDelay", #line, fails: false) { _ in Made(Task<Int>.withDelay(3_600)) },
    Producer("TaskCompletionSource", #line) { let source = TaskCompletionSource<Int>(); $0.execute { source.set(error: Boom.boom) }; return Made(source.task) },
]

/// BoltsSwift's dialect, for the shared checks.
private let face = TaskFace(
    file: thisFile,
    writeEnd: "TaskCompletionSource",
    source: { TaskCompletionSource<Int>(file: $0, line: $1) },
    task: { $0.task },
    succeed: { $0.set(result: 1) },
    fail: { $0.set(error: Boom.boom) },
    faulted: { Task<Int>(error: Boom.boom) },
    future: { $0 },
    immediate: Executor.immediate,
    holding: { held in .escapingClosure { held.hold($0) } }
)

@Suite("BoltsSwift: every way to make a task, linked, named and asked through the core's primitives", .hangGuard())
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

    /// Tracking is process-wide, so it is turned on in a child process of its own.
    @Test func theReportListsEachTaskAtItsCallersLine() async {
        let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            face.requireEveryWayIsListedUnderItsInput(ways)
            face.requireEveryProducerIsListed(producers)
        }
        expectChildPassed(child)
    }
}
