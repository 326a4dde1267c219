import BrightFutures
import FuturesTestSupport
import Synchronization
import Testing

// Every way BrightFutures' `AsyncType` and `Sequence` extensions make a future forwards to the core's
// combinator at its caller's file and line, so each of them, called from generic code as BrightFutures'
// users call them:
// - is listed by the pending-futures report under its input, at its caller's file and line;
// - names its step at its caller's file and line in a failure trace, for a pending and for an already
//   failed input;
// - passes a cancellation request on to its input as one consumer's ask.
// On a concrete `Future` the core's own methods win (the face's are disfavoured), so each row reaches the
// face through generic code: an `any IntFace` (a member of `AsyncType` opens it) or a generic function
// declared on the row's line. Each row's call is on the row's own line, so that the row's `#line` is the
// line the face records. Every row runs with the immediate context as the default.

private enum Boom: Error {
    case boom
}

private let now = BrightFutures.immediateExecutionContext
private let thisFile = "BrightFuturesTests/EveryWayToMakeAFutureTests.swift"

/// A logger for the `debug` row that writes nothing.
private struct SilentLogger: LoggerType {
    func log(message: String) {}
}

/// A `Future<Int, Boom>` as generic code sees it: only BrightFutures' `AsyncType` members apply.
private protocol IntFace: AsyncType where Value == Result<Int, Boom> {}
extension Future: IntFace where T == Int, E == Boom {}

private func face(_ future: Future<Int, Boom>) -> any IntFace { future }

/// A future made by one row, with what the checks need of it, whatever its types.
private struct Made {
    let requestCancellation: @Sendable () -> Void
    let failureTrace: @Sendable () -> FailureTrace?
    let keep: AnyObject

    init<T, E>(_ future: Future<T, E>) {
        requestCancellation = { future.requestCancellation() }
        failureTrace = {
            _ = future.result  // looked at: no unobserved-failure report
            return future.failureTrace
        }
        keep = future
    }

    /// A face's `Self`, which is a `Future<Int, Boom>`.
    init(face value: any IntFace) {
        // swift-format-ignore: NeverForceUnwrap
        self.init(value as! Future<Int, Boom>)
    }
}

/// One public way to make a future from an input, `Future<Int, Boom>`.
private struct Way: Sendable, CustomTestStringConvertible {
    let step: String
    let line: Int
    /// Whether the made future fails as soon as its input fails (`recover` succeeds).
    let failsAtOnce: Bool
    let make: @Sendable (Future<Int, Boom>) -> Made

    init(
        _ step: String, _ line: Int, failsAtOnce: Bool = true,
        _ make: @escaping @Sendable (Future<Int, Boom>) -> Made
    ) {
        self.step = step
        self.line = line
        self.failsAtOnce = failsAtOnce
        self.make = { input in
            DefaultExecutionContext.withDefault(Futures.ExecutionContext(now)) { make(input) }
        }
    }

    var testDescription: String { "\(step) (line \(line))" }
}

// swift-format-ignore
private let ways: [Way] = [
    Way("map", #line) { Made(face($0).map(now) { $0 + 1 }) },
    Way("map", #line) { Made(face($0).map { $0 + 1 }) },
    Way("flatMap", #line) { Made(face($0).flatMap(now) { Future<Int, Boom>(value: $0) }) },
    Way("flatMap", #line) { Made(face($0).flatMap { Future<Int, Boom>(value: $0) }) },
    Way("flatMap", #line) { Made(face($0).flatMap(now) { Result<Int, Boom>.success($0) }) },
    Way("flatMap", #line) { Made(face($0).flatMap { Result<Int, Boom>.success($0) }) },
    Way("mapError", #line) { Made(face($0).mapError(now) { $0 }) },
    Way("mapError", #line) { Made(face($0).mapError { $0 }) },
    Way("recover", #line, failsAtOnce: false) { Made(face($0).recover(context: now) { _ in 0 }) },
    Way("recover", #line, failsAtOnce: false) { Made(face($0).recover { _ in 0 }) },
    Way("recoverWith", #line) { Made(face($0).recoverWith(context: now) { Future<Int, Boom>(error: $0) }) },
    Way("recoverWith", #line) { Made(face($0).recoverWith { Future<Int, Boom>(error: $0) }) },
    Way("andThen", #line) { Made(face: face($0).andThen(context: now) { _ in }) },
    Way("andThen", #line) { Made(face: face($0).andThen { _ in }) },
    Way("andThen", #line) { Made(face: face($0.map(now) { $0 }).andThen(context: now) { _ in }) },
    Way("andThen", #line) { Made(face: face($0).debug(logger: SilentLogger(), context: now)) },
    Way("Future", #line) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Boom> { Made(Future<Int, Boom>(other: a)) }; return row($0) },
    Way("promoteError", #line) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, BrightFuturesError<Never>> { Made(a.promoteError() as Future<Int, BrightFuturesError<Boom>>) }; return row($0.mapError(now) { _ in BrightFuturesError<Never>.noSuchElement }) },
    Way("delay", #line, failsAtOnce: false) { Made(face: face($0).delay(.seconds(3_600))) },
    Way("delay", #line, failsAtOnce: false) { Made(face: face($0).delay(.global(), interval: .seconds(3_600))) },
    Way("zip", #line) { Made(face($0).zip(Future<Int, Boom>(value: 1))) },
    Way("filter", #line) { Made(face($0).filter { _ in true }) },
    Way("forceType", #line) { Made(face($0).forceType() as Future<Int, Boom>) },
    Way("asVoid", #line) { Made(face($0).asVoid()) },
    Way("promoteError", #line, failsAtOnce: false) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Never> { Made(a.promoteError() as Future<Int, Boom>) }; return row($0.recover(context: now) { _ in 0 }) },
    Way("promoteValue", #line) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Never, Boom> { Made(a.promoteValue() as Future<Int, Boom>) }; return row($0.flatMap(now) { _ in Future<Never, Boom>() }) },
    Way("firstCompleted", #line) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Boom> { Made([a].firstCompleted() as! Future<Int, Boom>) }; return row($0) },
    Way("flatten", #line) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Future<Int, Boom>, Boom> { Made(a.flatten()) }; return row($0.map(now) { Future<Int, Boom>(value: $0) }) },
    Way("sequence", #line) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Boom> { Made([a].sequence()) }; return row($0) },
    Way("fold", #line, failsAtOnce: false) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Boom> { Made([a].fold(0) { $0 + $1 }) }; return row($0) },
    Way("fold", #line) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Boom> { Made([a].fold(now, zero: 0) { $0 + $1 }) }; return row($0) },
    Way("find", #line, failsAtOnce: false) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Boom> { Made([a].find { _ in true }) }; return row($0) },
    Way("find", #line) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Boom> { Made([a].find(now) { _ in true }) }; return row($0) },
    Way("traverse", #line) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Boom> { Made([1].traverse(now) { _ in a }) }; return row($0) },
    Way("traverse", #line, failsAtOnce: false) { func row<A: AsyncType>(_ a: A) -> Made where A.Value == Result<Int, Boom> { Made([1].traverse { _ in a }) }; return row($0) },
    // On a concrete `Future`, the context-function overloads of this module.
    Way("map", #line) { Made($0.map(now, f: { $0 + 1 })) },
    Way("flatMap", #line) { Made($0.flatMap(now, f: { Future<Int, Boom>(value: $0) })) },
    Way("flatMap", #line) { Made($0.flatMap(now, f: { Result<Int, Boom>.success($0) })) },
    Way("andThen", #line) { Made($0.andThen(context: now, callback: { _ in })) },
    Way("mapError", #line) { Made($0.mapError(now, f: { $0 })) },
    Way("recover", #line, failsAtOnce: false) { Made($0.recover(context: now, task: { _ in 0 })) },
    Way("recoverWith", #line) { Made($0.recoverWith(context: now, task: { Future<Int, Boom>(error: $0) })) },
    Way("traverse", #line) { input in Made([1].traverse(now, f: { _ in input })) },
    Way("find", #line) { Made([$0].find(now, p: { _ in true })) },
    Way("debug", #line) { Made($0.debug(logger: SilentLogger(), context: now)) },
    Way("fold", #line) { Made([$0].fold(now, zero: 0, f: { $0 + $1 })) },
]

@Suite("BrightFutures: every way to make a future, linked, named and asked through the core", .hangGuard())
struct EveryWayToMakeAFutureTests {
    @Test(arguments: ways)
    fileprivate func aRequestReachesTheInputAsOneConsumersAsk(_ way: Way) {
        let promise = Promise<Int, Boom>()
        let asked = Atomic<Int>(0)
        promise.future.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        let other = promise.future.consumer()
        let made = way.make(promise.future)
        made.requestCancellation()
        // Another consumer still waits: the made future's request is one ask, not a request.
        #expect(asked.load(ordering: .relaxed) == 0)
        other.requestCancellation()
        // Every consumer has asked now.
        #expect(asked.load(ordering: .relaxed) == 1)
        promise.failure(.boom)
        _ = made.failureTrace()  // looked at: no unobserved-failure report
    }

    @Test(arguments: ways)
    fileprivate func theFailureTraceNamesTheStepAtItsCallersLine(_ way: Way) {
        guard way.failsAtOnce else { return }
        FuturesDiagnostics.withFailureTracing {
            // A pending input that fails later.
            let promise = Promise<Int, Boom>()
            let made = way.make(promise.future)
            promise.failure(.boom)
            expectEndsWithTheStep(made.failureTrace(), way)
            // An input that has failed already.
            expectEndsWithTheStep(way.make(Future(error: .boom)).failureTrace(), way)
        }
    }

    @Test func theReportListsEachFutureUnderItsInputAtItsCallersLine() async {
        let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            everyWayIsListedUnderItsInput()
        }
        expectChildPassed(child)
    }
}

private func expectEndsWithTheStep(_ trace: FailureTrace?, _ way: Way) {
    expectTrace(trace, endsWith: way.step, at: thisFile, line: way.line)
}

/// The child process of ``EveryWayToMakeAFutureTests/theReportListsEachFutureUnderItsInputAtItsCallersLine()``:
/// tracking is process-wide, so it is turned on in a process of its own; checks with `childRequire`.
private func everyWayIsListedUnderItsInput() {
    FuturesDiagnostics.tracksPendingFutures = true
    for way in ways {
        childRequireListedUnderItsInput("\(way)", step: way.step, file: thisFile, line: way.line) {
            (input: Future<Int, Boom>) in way.make(input).keep
        }
    }
}
