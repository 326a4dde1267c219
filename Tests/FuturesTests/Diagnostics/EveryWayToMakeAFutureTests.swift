import Synchronization
import Testing

@testable import Futures

// Every combinator that makes a future from another goes through the core's primitives (`depend(on:)`,
// the one gatherer, the one timer), so each of them, whatever its path:
// - is listed by the pending-futures report under its input, at its caller's file and line;
// - names its step at its caller's file and line in a failure trace, for a pending and for an already
//   failed input;
// - passes a cancellation request on to its input as one consumer's ask (shared work that another
//   consumer still waits for keeps running).
// The table holds one row per way; each row's call is on the row's own line, so that the row's `#line`
// is the line the combinator records.

private enum Boom: Error {
    case boom
}

private let now = immediateExecutionContext
private let thisFile = "FuturesTests/EveryWayToMakeAFutureTests.swift"

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
}

/// One public way to make a future from an input.
private struct Way: Sendable, CustomTestStringConvertible {
    let step: String
    let line: Int
    /// Whether the made future fails as soon as its input fails (`settled` never fails; a delay fails
    /// later, from its timer).
    let failsAtOnce: Bool
    let make: @Sendable (Future<Int, Boom>) -> Made

    init(
        _ step: String, _ line: Int, failsAtOnce: Bool = true,
        _ make: @escaping @Sendable (Future<Int, Boom>) -> Made
    ) {
        self.step = step
        self.line = line
        self.failsAtOnce = failsAtOnce
        self.make = make
    }

    var testDescription: String { "\(step) (line \(line))" }
}

/// A limiter shared by the rows that submit (it never fills: one item at a time runs in each row).
private let limiter = ConcurrencyLimiter(maxConcurrent: 1_000)

// swift-format-ignore
private let ways: [Way] = [
    Way("map", #line) { Made($0.map(now) { $0 + 1 }) },
    Way("flatMap", #line) { Made($0.flatMap(now) { Future<Int, Boom>(value: $0) }) },
    Way("flatMap", #line) { Made($0.flatMap(now) { Result<Int, Boom>.success($0) }) },
    Way("andThen", #line) { Made($0.andThen(context: now) { _ in }) },
    Way("mapError", #line) { Made($0.mapError(now) { $0 }) },
    Way("recoverWith", #line) { Made($0.recoverWith(context: now) { Future<Int, Boom>(error: $0) }) },
    Way("consumer", #line) { Made($0.consumer()) },
    Way("timeout", #line) { Made($0.timeout(after: .seconds(3_600), failingWith: .boom)) },
    Way("zip", #line) { Made($0.zip(Future<Int, Boom>(value: 1))) },
    Way("zip", #line) { Made(Future<(Int, Int), Boom>.zip($0, Future<Int, Boom>(value: 1))) },
    Way("sequence", #line) { Made([$0].sequence()) },
    Way("traverse", #line) { input in Made([1].traverse(now, f: { _ in input })) },
    Way("traverse", #line) { input in Made([1].traverse(maxConcurrent: 1, now, f: { _ in input })) },
    Way("settled", #line, failsAtOnce: false) { Made([$0].settled()) },
    Way("race", #line) { Made(Future.race($0)) },
    Way("firstCompleted", #line) { Made([$0].firstCompleted()) },
    Way("firstCompleted", #line) { Made([$0].firstCompleted(cancellingOthers: true)) },
    Way("asVoid", #line) { Made($0.asVoid()) },
    Way("forceType", #line) { Made($0.forceType() as Future<Int, Boom>) },
    Way("flatten", #line) { Made($0.map(now) { Future<Int, Boom>(value: $0) }.flatten()) },
    Way("delay", #line, failsAtOnce: false) { Made($0.delay(for: .seconds(3_600))) },
    Way("delay", #line, failsAtOnce: false) { Made($0.delay(.global(), interval: .seconds(3_600))) },
    Way("fold", #line) { Made([$0].fold(now, zero: 0) { $0 + $1 }) },
    Way("map", #line) { input in Made(Deferred { input }.map { $0 + 1 }.run()) },
    Way("flatMap", #line) { input in Made(Deferred { input }.flatMap { Deferred.unit($0) }.run()) },
    Way("mapError", #line) { input in Made(Deferred { input }.mapError { $0 }.run()) },
    Way("retry", #line) { input in Made(Future<Int, Boom>.retry(1) { input }) },
    Way("submit", #line) { input in Made(limiter.submit { input }) },
    Way("submit", #line) { input in Made(limiter.submit(timeout: .seconds(3_600), timingOutWith: Boom.boom) { input }) },
]

@Suite("Every way to make a future: linked, named and asked through the core's primitives", .hangGuard())
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
        withExtendedLifetime(made.keep) {}
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
            let failed = Promise<Int, Boom>()
            failed.failure(.boom)
            expectEndsWithTheStep(way.make(failed.future).failureTrace(), way)
        }
    }

    @Test func theReportListsEachFutureUnderItsInputAtItsCallersLine() async {
        await #expect(processExitsWith: .success) { everyWayIsListedUnderItsInput() }
    }
}

private func expectEndsWithTheStep(_ trace: FailureTrace?, _ way: Way) {
    let last = trace?.steps.last
    #expect(last?.name == way.step, "\(trace.map(String.init(describing:)) ?? "no trace")")
    #expect(last?.file == thisFile)
    #expect(last?.line == UInt(way.line))
}

/// The child process of ``EveryWayToMakeAFutureTests/theReportListsEachFutureUnderItsInputAtItsCallersLine()``:
/// tracking is process-wide, so it is turned on in a process of its own; checks with `precondition`.
private func everyWayIsListedUnderItsInput() {
    FuturesDiagnostics.tracksPendingFutures = true
    for way in ways {
        let promise = Promise<Int, Boom>()
        let promiseLine = UInt(#line - 1)
        let made = way.make(promise.future)
        let chains = FuturesDiagnostics.pendingFutures()
        let chain = chains.first { $0.site.name == "Promise" && $0.site.line == promiseLine }
        precondition(chain != nil, "\(way): no chain for its input in \(chains)")
        let listed = chain!.dependents.first {
            $0.site.name == way.step && $0.site.file == thisFile && $0.site.line == UInt(way.line)
        }
        precondition(listed != nil, "\(way) is not listed under its input: \(chain!)")
        precondition(!listed!.waitsOn.isEmpty, "\(way) waits for nothing: \(chain!)")
        promise.success(1)
        withExtendedLifetime(made.keep) {}
        precondition(
            FuturesDiagnostics.pendingFutures().allSatisfy { $0.site.line != promiseLine },
            "\(way) left a pending future: \(FuturesDiagnostics.pendingFutures())")
    }
}
