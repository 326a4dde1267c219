import Dispatch
import Futures
import Synchronization
import Testing

@testable import SimpleFutures

// SimpleFutures' combinators and constructors go through the core's primitives with their caller's file
// and line, so a future made by any of them:
// - names its step at the line that called it in a failure trace, for a pending and for an already
//   failed input;
// - is listed by the pending-futures report under its input (a producer: as a root) at that line;
// - passes a request on to its input as one consumer's ask.
// Each row's call is on the row's own line. The `??` operators are missing on purpose: an operator takes
// no `file:`/`line:`, so they record the face's own line.

private struct Boom: Error {}

private let now = immediateExecutionContext
private let thisFile = "SimpleFuturesTests/EveryWayToMakeAFutureTests.swift"

/// A future made by one row, with what the checks need of it, whatever its value type.
private struct Made: Sendable {
    let requestCancellation: @Sendable () -> Void
    let failureTrace: @Sendable () -> FailureTrace?
    let keep: AnyObject & Sendable

    init<M>(_ future: SimpleFutures.Future<M>) {
        let base = future.base
        requestCancellation = { base.requestCancellation() }
        failureTrace = {
            _ = base.result  // looked at: no unobserved-failure report
            return base.failureTrace
        }
        keep = base
    }
}

/// One SimpleFutures combinator applied to an input.
private struct Way: Sendable, CustomTestStringConvertible {
    let step: String
    let line: Int
    let make: @Sendable (SimpleFutures.Future<Int>) -> Made

    init<M>(
        _ step: String, _ line: Int,
        _ make: @escaping @Sendable (SimpleFutures.Future<Int>) -> SimpleFutures.Future<M>
    ) {
        self.step = step
        self.line = line
        self.make = { Made(make($0)) }
    }

    var testDescription: String { "\(step) (line \(line))" }
}

// swift-format-ignore
private let ways: [Way] = [
    Way("map", #line) { $0.map(context: now) { $0 + 1 } },
    Way("flatMap", #line) { $0.flatMap(context: now) { SimpleFutures.Future(value: $0) } },
    Way("withFilter", #line) { $0.withFilter(context: now) { _ in true } },
    Way("andThen", #line) { $0.andThen(context: now) { _ in } },
    Way("recover", #line) { $0.recover(context: now) { throw $0 } },
    Way("recoverWith", #line) { $0.recoverWith(context: now) { throw $0 } },
    Way("mapError", #line) { $0.mapError(context: now) { $0 } },
    Way("map", #line) { $0.map(context: now, cancelToken: CancelToken()) { $0 + 1 } },
    Way("Future", #line) { SimpleFutures.Future(context: now, dependent: $0) },
    Way("fold", #line) { [$0].fold(context: now, initial: 0) { $0 + $1 } },
    Way("sequence", #line) { [$0].sequence(context: now) },
    Way("traverse", #line) { input in [1].traverse(context: now, mapping: { _ in input }) },
]

@Suite("SimpleFutures: every combinator names its caller's line and asks as one consumer", .hangGuard())
struct SimpleFuturesEveryWayTests {
    @Test(arguments: ways)
    fileprivate func theFailureTraceNamesTheStepAtItsCallersLine(_ way: Way) {
        FuturesDiagnostics.withFailureTracing {
            // A pending input that fails later.
            let input = SimpleFutures.Future<Int>()
            let made = way.make(input)
            input.failure(Boom())
            expectTrace(made.failureTrace(), endsWith: way.step, at: thisFile, line: way.line)
            // An input that has failed already.
            let failed = SimpleFutures.Future<Int>(error: Boom())
            expectTrace(way.make(failed).failureTrace(), endsWith: way.step, at: thisFile, line: way.line)
        }
    }

    @Test(arguments: ways)
    fileprivate func aRequestReachesTheInputAsOneConsumersAsk(_ way: Way) {
        let input = SimpleFutures.Future<Int>()
        let asked = Atomic<Int>(0)
        input.base.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        let other = input.base.consumer()
        let made = way.make(input)
        made.requestCancellation()
        #expect(asked.load(ordering: .relaxed) == 0)  // another consumer still waits
        other.requestCancellation()
        #expect(asked.load(ordering: .relaxed) == 1)
        input.success(1)
        withExtendedLifetime(made.keep) {}
    }

    @Test func theReportListsEachFutureUnderItsInputAtItsCallersLine() async {
        let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            everyWayIsListedUnderItsInput()
        }
        expectChildPassed(child)
    }

    @Test func theReportListsEachProducedFutureAsARootAtItsCallersLine() async {
        let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            everyProducerIsListedAsARoot()
        }
        expectChildPassed(child)
    }
}

/// The child process of ``SimpleFuturesEveryWayTests/theReportListsEachFutureUnderItsInputAtItsCallersLine()``:
/// tracking is process-wide, so it is turned on in a process of its own; checks with `childRequire`.
private func everyWayIsListedUnderItsInput() {
    FuturesDiagnostics.tracksPendingFutures = true
    for way in ways {
        childRequireListedUnderItsInput("\(way)", step: way.step, file: thisFile, line: way.line) {
            (input: Futures.Future<Int, any Error>) in way.make(SimpleFutures.Future<Int>(input)).keep
        }
    }
}

/// One public way to make a SimpleFutures future from nothing, with how to complete it.
private struct Producer: Sendable, CustomStringConvertible {
    let step: String
    let line: Int
    let make: @Sendable () -> (future: Futures.Future<Int, any Error>, finish: () -> Void)

    var description: String { "\(step) (line \(line))" }
}

/// Where a producer's row keeps the completion it hands out, to finish the future later.
private final class Slot<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func take() -> Value? { value.withLock { $0.take() } }
}

/// A producer whose future completes through the completion it stored in `slot`.
private func stored<C: Sendable>(
    _ make: (Slot<C>) -> SimpleFutures.Future<Int>, finish: @escaping (C) -> Void
) -> (future: Futures.Future<Int, any Error>, finish: () -> Void) {
    let slot = Slot<C>()
    let future = make(slot).base
    return (future, { if let completion = slot.take() { finish(completion) } })
}

/// A serial queue context that runs nothing until `finish` resumes it.
private func suspendedContext() -> (ExecutionContext, () -> Void) {
    let queue = DispatchQueue(label: "SimpleFuturesEveryWayTests.suspended")
    queue.suspend()
    return (ExecutionContext(queue: queue), { queue.resume() })
}

private typealias ValueOrError = @Sendable (Int?, (any Error)?) -> Void
private typealias ValueAndError = @Sendable (Int, (any Error)?) -> Void
private typealias ValueOnly = @Sendable (Int) -> Void
private typealias ResolverCompletion = @Sendable (Try<Int>) -> Void

// swift-format-ignore
private let producers: [Producer] = [
    Producer(step: "future", line: #line) { let (context, resume) = suspendedContext(); return (SimpleFutures.future(context: context) { 1 }.base, resume) },
    Producer(step: "future", line: #line) { stored({ (slot: Slot<ValueAndError>) in SimpleFutures.future(method: { slot.set($0) }) }, finish: { $0(1, nil) }) },
    Producer(step: "future", line: #line) { stored({ (slot: Slot<ValueOnly>) in SimpleFutures.future(method: { slot.set($0) }) }, finish: { $0(1) }) },
    Producer(step: "Future", line: #line) { stored({ (slot: Slot<ResolverCompletion>) in SimpleFutures.Future(resolver: { slot.set($0) }) }, finish: { $0(.success(1)) }) },
]

/// The child process of ``SimpleFuturesEveryWayTests/theReportListsEachProducedFutureAsARootAtItsCallersLine()``.
private func everyProducerIsListedAsARoot() {
    FuturesDiagnostics.tracksPendingFutures = true
    for producer in producers {
        let made = producer.make()
        let chains = FuturesDiagnostics.pendingFutures()
        let listed = chains.contains {
            $0.site.name == producer.step && $0.site.file == thisFile && $0.site.line == UInt(producer.line)
        }
        childRequire(listed, "\(producer) is not listed at its caller's line: \(chains)")
        made.finish()
        withExtendedLifetime(made.future) {}
    }
}
