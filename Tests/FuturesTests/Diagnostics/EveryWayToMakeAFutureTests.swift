import Dispatch
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
// is the line the combinator records. Every row runs with the immediate context as the default, so that
// the forms that omit a context complete at once too.
// Producers (which have no input) have a table of their own, `producers`, below.

private enum Boom: Error {
    case boom
}

private let now = immediateExecutionContext
/// The immediate context as a context function (BrightFutures' form of a context).
private let thisFile = "FuturesTests/EveryWayToMakeAFutureTests.swift"

/// A logger for the `debug` rows that writes nothing.
private struct SilentLogger: LoggerType {
    func log(message: String) {}
}

/// A future made by one row, with what the checks need of it, whatever its types.
private struct Made {
    let requestCancellation: @Sendable () -> Void
    let failureTrace: @Sendable () -> FailureTrace?
    let isCompleted: @Sendable () -> Bool
    let keep: AnyObject

    init<T, E>(_ future: Future<T, E>) {
        requestCancellation = { future.requestCancellation() }
        failureTrace = {
            _ = future.result  // looked at: no unobserved-failure report
            return future.failureTrace
        }
        isCompleted = { future.isCompleted }
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
    /// The three checks, for the row's input type.
    let checkAsk: @Sendable (Way) -> Void
    let checkTrace: @Sendable (Way) -> Void
    let checkListed: @Sendable (Way) -> Void

    /// A way from a typed input, `Future<Int, Boom>`.
    init(
        _ step: String, _ line: Int, failsAtOnce: Bool = true,
        _ make: @escaping @Sendable (Future<Int, Boom>) -> Made
    ) {
        self.init(step, line, failsAtOnce: failsAtOnce, failingWith: Boom.boom, make)
    }

    /// A way from an input of any error type, failed with `error`.
    init<E: Error>(
        _ step: String, _ line: Int, failsAtOnce: Bool = true, failingWith error: E,
        _ make: @escaping @Sendable (Future<Int, E>) -> Made
    ) {
        self.step = step
        self.line = line
        self.failsAtOnce = failsAtOnce
        let make: @Sendable (Future<Int, E>) -> Made = { input in
            DefaultExecutionContext.withDefault(now) { make(input) }
        }
        checkAsk = { expectARequestReachesTheInputAsOneConsumersAsk($0, error, make) }
        checkTrace = { expectTheFailureTraceNamesTheStep($0, error, make) }
        checkListed = { requireListedUnderItsInput($0, error, make) }
    }

    /// A way from an untyped input, `Future<Int, any Error>`.
    static func untyped(
        _ step: String, _ line: Int, failsAtOnce: Bool = true,
        _ make: @escaping @Sendable (Future<Int, any Error>) -> Made
    ) -> Way {
        Way(step, line, failsAtOnce: failsAtOnce, failingWith: Boom.boom as any Error, make)
    }

    var testDescription: String { "\(step) (line \(line))" }
}

/// A limiter shared by the rows that submit (it never fills: one item at a time runs in each row).
private let limiter = ConcurrencyLimiter(maxConcurrent: 1_000)

// swift-format-ignore
private let ways: [Way] = [
    Way("map", #line) { Made($0.map(now) { $0 + 1 }) },
    Way("map", #line) { Made($0.map { $0 + 1 }) },
    Way("flatMap", #line) { Made($0.flatMap(now) { Future<Int, Boom>(value: $0) }) },
    Way("flatMap", #line) { Made($0.flatMap { Future<Int, Boom>(value: $0) }) },
    Way("flatMap", #line) { Made($0.flatMap(now) { Result<Int, Boom>.success($0) }) },
    Way("flatMap", #line) { Made($0.flatMap { Result<Int, Boom>.success($0) }) },
    Way("andThen", #line) { Made($0.andThen(context: now) { _ in }) },
    Way("andThen", #line) { Made($0.andThen(now) { _ in }) },
    Way("mapError", #line) { Made($0.mapError(now) { $0 }) },
    Way("mapError", #line) { Made($0.mapError { $0 }) },
    Way("recover", #line, failsAtOnce: false) { Made($0.recover(now) { _ in 0 }) },
    Way("recover", #line, failsAtOnce: false) { Made($0.recover(context: now) { _ in 0 }) },
    Way("recoverWith", #line) { Made($0.recoverWith(context: now) { Future<Int, Boom>(error: $0) }) },
    Way("recoverWith", #line) { Made($0.recoverWith(now) { Future<Int, Boom>(error: $0) }) },
    Way("filter", #line) { Made($0.filter { _ in true }) },
    Way("consumer", #line) { Made($0.consumer()) },
    Way("timeout", #line) { Made($0.timeout(after: .seconds(3_600), failingWith: .boom)) },
    Way("timeout", #line) { Made($0.timeout(after: .seconds(3_600))) },
    Way("zip", #line) { Made($0.zip(Future<Int, Boom>(value: 1))) },
    Way("zip", #line) { Made(Future<(Int, Int), Boom>.zip($0, Future<Int, Boom>(value: 1))) },
    Way("sequence", #line) { Made([$0].sequence()) },
    Way("traverse", #line) { input in Made([1].traverse(now, f: { _ in input })) },
    Way("traverse", #line, failsAtOnce: false) { input in Made([1].traverse(f: { _ in input })) },
    Way("traverse", #line) { input in Made([1].traverse(maxConcurrent: 1, now, f: { _ in input })) },
    Way("settled", #line, failsAtOnce: false) { Made([$0].settled()) },
    Way("race", #line) { Made(Future.race($0)) },
    Way("race", #line) { Made(Future.race([$0])) },
    Way("firstCompleted", #line) { Made([$0].firstCompleted()) },
    Way("firstCompleted", #line) { Made([$0].firstCompleted(cancellingOthers: true)) },
    Way("find", #line) { Made([$0].find(now, p: { _ in true })) },
    Way("find", #line, failsAtOnce: false) { Made([$0].find { _ in true }) },
    Way("asVoid", #line) { Made($0.asVoid()) },
    Way("forceType", #line) { Made($0.forceType() as Future<Int, Boom>) },
    Way("promoteError", #line, failsAtOnce: false) { Made($0.recover(now) { _ in 0 }.promoteError() as Future<Int, Boom>) },
    Way("promoteValue", #line) { Made($0.flatMap(now) { _ in Future<Never, Boom>() }.promoteValue() as Future<Int, Boom>) },
    Way("flatten", #line) { Made($0.map(now) { Future<Int, Boom>(value: $0) }.flatten()) },
    Way("promoteError", #line, failingWith: CombinatorError<Never>.noSuchElement) { Made($0.promoteError() as Future<Int, CombinatorError<Boom>>) },
    Way("debug", #line) { Made($0.debug(logger: SilentLogger(), context: now)) },
    Way("Future", #line) { Made(Future(other: $0)) },
    Way("delay", #line, failsAtOnce: false) { Made($0.delay(for: .seconds(3_600))) },
    Way("delay", #line, failsAtOnce: false) { Made($0.delay(for: .seconds(3_600), failingWith: .boom)) },
    Way("delay", #line, failsAtOnce: false) { Made($0.delay(.global(), interval: .seconds(3_600))) },
    Way("delay", #line, failsAtOnce: false) { Made($0.delay(.seconds(3_600))) },
    Way("fold", #line) { Made([$0].fold(now, zero: 0) { $0 + $1 }) },
    Way("fold", #line, failsAtOnce: false) { Made([$0].fold(0) { $0 + $1 }) },
    Way("map", #line) { input in Made(Deferred { input }.map { $0 + 1 }.run()) },
    Way("flatMap", #line) { input in Made(Deferred { input }.flatMap { Deferred.unit($0) }.run()) },
    Way("mapError", #line) { input in Made(Deferred { input }.mapError { $0 }.run()) },
    Way("retry", #line) { input in Made(Future<Int, Boom>.retry(1) { input }) },
    Way("retry", #line) { input in Made(Future<Int, Boom>.retry(1, failingWith: .boom) { input }) },
    Way("retry", #line) { input in Made(Future<Int, Boom>.retry(1, backoff: .constant(.zero)) { input }) },
    Way("retry", #line) { input in Made(Future<Int, Boom>.retry(1, backoff: .constant(.zero), failingWith: .boom) { input }) },
    Way("retry", #line) { input in Made(Deferred { input }.retry(1).run()) },
    Way("retry", #line) { input in Made(Deferred { input }.retry(1, backoff: .constant(.zero)).run()) },
    Way("retry", #line) { input in Made(Deferred { input }.retry(1, backoff: .constant(.zero), failingWith: .boom).run()) },
    Way("submit", #line) { input in Made(limiter.submit { input }) },
    Way("submit", #line) { input in Made(limiter.submit(failingWith: Boom.boom, timeout: .seconds(3_600), timingOutWith: Boom.boom) { input }) },
    // Untyped inputs (`Future<Int, any Error>`): the throwing forms, with and without a `CancelToken`.
    .untyped("map", #line) { Made($0.map(context: now, mapping: { value throws in value + 1 })) },
    .untyped("map", #line) { Made($0.map(context: now, cancelToken: CancelToken(), mapping: { value throws in value + 1 })) },
    .untyped("flatMap", #line) { Made($0.flatMap(context: now, mapping: { value throws in Future<Int, any Error>(value: value) })) },
    .untyped("flatMap", #line) { Made($0.flatMap(context: now, cancelToken: CancelToken(), mapping: { value throws in Future<Int, any Error>(value: value) })) },
    .untyped("withFilter", #line) { Made($0.withFilter(context: now, filter: { _ throws in true })) },
    .untyped("withFilter", #line) { Made($0.withFilter(context: now, cancelToken: CancelToken(), filter: { _ throws in true })) },
    .untyped("andThen", #line) { Made($0.andThen(context: now, cancelToken: CancelToken(), completion: { _ in })) },
    .untyped("recover", #line) { Made($0.recover(context: now, recovery: { error throws in throw error })) },
    .untyped("recover", #line) { Made($0.recover(context: now, cancelToken: CancelToken(), recovery: { error throws in throw error })) },
    .untyped("recoverWith", #line) { Made($0.recoverWith(context: now, recovery: { error throws -> Future<Int, any Error> in throw error })) },
    .untyped("recoverWith", #line) { Made($0.recoverWith(context: now, cancelToken: CancelToken(), recovery: { error throws -> Future<Int, any Error> in throw error })) },
    .untyped("mapError", #line) { Made($0.mapError(context: now, cancelToken: CancelToken(), mapping: { $0 })) },
    .untyped("Future", #line) { Made(Future<Int, any Error>(context: now, dependent: $0)) },
    .untyped("timeout", #line) { Made(($0.timeout(after: .seconds(3_600)) as Future<Int, any Error>)) },
    .untyped("submit", #line) { input in Made(limiter.submit(timeout: .seconds(3_600)) { input }) },
    .untyped("fold", #line) { Made([$0].fold(context: now, initial: 0, combine: { accumulated, value throws in accumulated + value })) },
    .untyped("sequence", #line) { Made([$0].sequence(context: now) as Future<[Int], any Error>) },
    .untyped("traverse", #line) { input in Made([1].traverse(context: now, mapping: { _ in input }) as Future<[Int], any Error>) },
]

@Suite("Every way to make a future: linked, named and asked through the core's primitives", .hangGuard())
struct EveryWayToMakeAFutureTests {
    @Test(arguments: ways)
    fileprivate func aRequestReachesTheInputAsOneConsumersAsk(_ way: Way) {
        way.checkAsk(way)
    }

    @Test(arguments: ways)
    fileprivate func theFailureTraceNamesTheStepAtItsCallersLine(_ way: Way) {
        guard way.failsAtOnce else { return }
        way.checkTrace(way)
    }

    @Test func theReportListsEachFutureUnderItsInputAtItsCallersLine() async {
        let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            everyWayIsListedUnderItsInput()
        }
        expectChildPassed(child)
    }

}

@Suite("Every way to produce a future: listed as a root and asked at its work", .serialized, .hangGuard())
struct EveryWayToProduceAFutureTests {
    @Test(arguments: producers)
    fileprivate func aRequestReachesTheProducersOperation(_ producer: Producer) async {
        let made = producer.make()
        made.future.requestCancellation()
        if let asked = made.asked {
            #expect(await asked(), "a request did not reach \(producer)")
        }
        made.finish()
        withExtendedLifetime(made.future.keep) {}
    }

    @Test func theReportListsEachProducedFutureAsARootAtItsCallersLine() async {
        let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            everyProducerIsListedAsARoot()
        }
        expectChildPassed(child)
    }
}

private func expectARequestReachesTheInputAsOneConsumersAsk<E: Error>(
    _ way: Way, _ error: E, _ make: @Sendable (Future<Int, E>) -> Made
) {
    let promise = Promise<Int, E>()
    let asked = Atomic<Int>(0)
    promise.future.onCancellationRequested { asked.add(1, ordering: .relaxed) }
    let other = promise.future.consumer()
    let made = make(promise.future)
    made.requestCancellation()
    // Another consumer still waits: the made future's request is one ask, not a request.
    #expect(asked.load(ordering: .relaxed) == 0, "\(way)")
    other.requestCancellation()
    // Every consumer has asked now.
    #expect(asked.load(ordering: .relaxed) == 1, "\(way)")
    promise.failure(error)
    withExtendedLifetime(made.keep) {}
}

private func expectTheFailureTraceNamesTheStep<E: Error>(
    _ way: Way, _ error: E, _ make: @Sendable (Future<Int, E>) -> Made
) {
    FuturesDiagnostics.withFailureTracing {
        // A pending input that fails later.
        let promise = Promise<Int, E>()
        let made = make(promise.future)
        promise.failure(error)
        expectEndsWithTheStep(made.failureTrace(), way)
        // An input that has failed already.
        let failed = Promise<Int, E>()
        failed.failure(error)
        expectEndsWithTheStep(make(failed.future).failureTrace(), way)
    }
}

private func expectEndsWithTheStep(_ trace: FailureTrace?, _ way: Way) {
    expectTrace(trace, endsWith: way.step, at: thisFile, line: way.line)
}

/// The child process of ``EveryWayToMakeAFutureTests/theReportListsEachFutureUnderItsInputAtItsCallersLine()``:
/// tracking is process-wide, so it is turned on in a process of its own; checks with `childRequire`.
private func everyWayIsListedUnderItsInput() {
    FuturesDiagnostics.tracksPendingFutures = true
    for way in ways { way.checkListed(way) }
}

private func requireListedUnderItsInput<E: Error>(
    _ way: Way, _ error: E, _ make: @Sendable (Future<Int, E>) -> Made
) {
    childRequireListedUnderItsInput("\(way)", step: way.step, file: thisFile, line: way.line) { make($0).keep }
}

// MARK: - Producers

/// Where a producer's row keeps what it hands its work (a completion, a flag), to finish it later.
private final class Slot<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func take() -> Value? { value.withLock { $0.take() } }
}

/// A future made by a producer's row, with how to see a request reach its work and how to finish it.
private struct Produced {
    let future: Made
    /// Whether a request on `future` reached the producer's operation or cancellation handler; `nil`
    /// when the producer has none (a queue's block, a resolver), so a request can reach nothing.
    let asked: (@Sendable () async -> Bool)?
    /// Completes what the future waits for, so that nothing stays pending.
    let finish: @Sendable () -> Void
}

/// One public way to make a future with no input.
private struct Producer: Sendable, CustomTestStringConvertible {
    let step: String
    let line: Int
    let make: @Sendable () -> Produced

    init(_ step: String, _ line: Int, _ make: @escaping @Sendable () -> Produced) {
        self.step = step
        self.line = line
        self.make = make
    }

    var testDescription: String { "\(step) (line \(line))" }
}

/// A serial queue that runs nothing until `finish` resumes it.
private func suspendedQueue() -> DispatchQueue {
    let queue = DispatchQueue(label: "EveryWayToMakeAFutureTests.suspended")
    queue.suspend()
    return queue
}

/// A producer whose future completes through a stored completion; a request reaches nothing.
private func stored<T: Sendable, E: Error>(
    _ value: T, _ make: (Slot<@Sendable (Result<T, E>) -> Void>) -> Future<T, E>
) -> Produced {
    let slot = Slot<@Sendable (Result<T, E>) -> Void>()
    let future = make(slot)
    return Produced(future: Made(future), asked: nil, finish: { slot.take()?(.success(value)) })
}

/// A producer whose future fails when a request reaches it: the request reached it once it has failed
/// (awaited, so that a producer's Swift task can run meanwhile).
private func failsOnRequest<T, E>(_ future: Future<T, E>) -> Produced {
    Produced(
        future: Made(future),
        asked: {
            do {
                _ = try await future.get()
                return false
            } catch {
                return true
            }
        },
        finish: {})
}

// swift-format-ignore
private let producers: [Producer] = [
    Producer("Promise", #line) { let promise = Promise<Int, Boom>(); let asked = Atomic<Bool>(false); promise.future.onCancellationRequested { asked.store(true, ordering: .relaxed) }; return Produced(future: Made(promise.future), asked: { asked.load(ordering: .relaxed) }, finish: { promise.success(1) }) },
    Producer("Future", #line) { stored(1) { slot in Future<Int, Boom> { slot.set($0) } } },
    Producer("Future", #line) { let slot = Slot<@Sendable (Result<Int, Boom>) -> Void>(); return failsOnRequest(Future<Int, Boom>(cancellable: { complete in slot.set(complete); return { slot.take()?(.failure(.boom)) } })) },
    Producer("Future", #line) { failsOnRequest(Future<Int, any Error> { try await Task.sleep(for: .seconds(3_600)); return 1 }) },
    Producer("after", #line) { let future = Future<Void, Never>.after(.seconds(3_600)); return Produced(future: Made(future), asked: nil, finish: {}) },
    Producer("after", #line) { failsOnRequest(Future<Void, Boom>.after(.seconds(3_600), failingWith: .boom)) },
    Producer("asyncValue", #line) { let queue = suspendedQueue(); return Produced(future: Made(queue.asyncValue { 1 }), asked: nil, finish: { queue.resume() }) },
    Producer("asyncResult", #line) { let queue = suspendedQueue(); return Produced(future: Made(queue.asyncResult { Result<Int, Boom>.success(1) }), asked: nil, finish: { queue.resume() }) },
    Producer("asyncValueAfter", #line) { let queue = suspendedQueue(); return Produced(future: Made(queue.asyncValueAfter(.now()) { 1 }), asked: nil, finish: { queue.resume() }) },
    Producer("Deferred", #line) { stored(1) { slot in Deferred<Int, Boom> { slot.set($0) }.run() } },
    Producer("Future", #line) { stored(1) { slot in Futures.materialize { (completion: @escaping @Sendable (Int?, Boom?) -> Void) in slot.set { completion(try? $0.get(), nil) } } } },
    Producer("Future", #line) { stored(1) { slot in future(method: { (completion: @escaping @Sendable (Int?, (any Error)?) -> Void) in slot.set { completion(try? $0.get(), nil) } }) } },
    Producer("Future", #line) { let future = Future<Int, Boom>(value: 1, delay: .seconds(3_600)); return Produced(future: Made(future), asked: nil, finish: {}) },
    Producer("future", #line) { let queue = suspendedQueue(); return Produced(future: Made(future(context: ExecutionContext(queue: queue)) { 1 }), asked: nil, finish: { queue.resume() }) },
    Producer("Promise", #line) { let promise = Promise<Int, Boom>(progressTotal: 1); return Produced(future: Made(promise.future), asked: nil, finish: { promise.success(1) }) },
    Producer("submit", #line) { failsOnRequest(limiter.submit { Future<Int, Boom>(cancellable: { complete in { complete(.failure(.boom)) } }) }) },
    Producer("submit", #line) { failsOnRequest(limiter.submit { () async throws(any Error) -> Int in try await Task.sleep(for: .seconds(3_600)); return 1 }) },
]

/// The child process of ``EveryWayToMakeAFutureTests/theReportListsEachProducedFutureAsARootAtItsCallersLine()``.
private func everyProducerIsListedAsARoot() {
    FuturesDiagnostics.tracksPendingFutures = true
    for producer in producers {
        let made = producer.make()
        let chains = FuturesDiagnostics.pendingFutures()
        let atTheRow = { (site: FailureTrace.Step) in
            site.name == producer.step && site.file == thisFile && site.line == UInt(producer.line)
        }
        // A root; or, for a limiter's `submit` whose work started at once, a dependent of that work,
        // which the row started at the same line.
        let listed = chains.contains { chain in
            atTheRow(chain.site)
                || (chain.site.file == thisFile && chain.site.line == UInt(producer.line)
                    && chain.dependents.contains { atTheRow($0.site) })
        }
        childRequire(listed, "\(producer) is not listed at its caller's line: \(chains)")
        made.future.requestCancellation()
        _ = made.future.failureTrace()  // looked at: no unobserved-failure report
        made.finish()
        withExtendedLifetime(made.future.keep) {}
    }
}
