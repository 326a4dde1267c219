import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Futures

/// A thread-safe counter that closures can capture.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    init(_ value: Int = 0) { storage.store(value, ordering: .relaxed) }
    @discardableResult
    func increment(by delta: Int = 1) -> Int { storage.add(delta, ordering: .sequentiallyConsistent).newValue }
    @discardableResult
    func decrement() -> Int { storage.subtract(1, ordering: .sequentiallyConsistent).newValue }
    var value: Int { storage.load(ordering: .sequentiallyConsistent) }
}

/// Collects values from many threads.
///
/// Uses the library's `LockedBox` (a spin lock on `Atomic`), not `Synchronization.Mutex`: under
/// contention on Linux, `Mutex` parks on a futex ThreadSanitizer cannot see and TSan reports false races.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = LockedBox<[Value]>([])
    func append(_ value: Value) { storage.withValue { $0.append(value) } }
    var values: [Value] { storage.value }
}

@Suite("Future core: completion, callbacks, ordering, memory")
struct FutureCoreTests {
    @Test func aCompletedFutureReportsItsState() {
        let success = Future<Int, FuturesError>(value: 1)
        #expect(success.isCompleted && success.isSuccess && !success.isFailure)
        #expect(success.value == 1 && success.error == nil)
        let failure = Future<Int, FuturesError>(error: .timedOut)
        #expect(failure.isFailure && failure.error == .timedOut && failure.value == nil)
        let pending = Future<Int, FuturesError>()
        #expect(!pending.isCompleted && pending.result == nil)
    }

    @Test func callbacksRunInRegistrationOrderOnce() {
        let promise = Promise<Int, Never>()
        let order = Recorder<Int>()
        for index in 0..<100 {
            promise.future.onComplete(immediateExecutionContext) { _ in order.append(index) }
        }
        promise.success(1)
        #expect(order.values == Array(0..<100))
        promise.future.onSuccess(immediateExecutionContext) { _ in order.append(100) }
        #expect(order.values == Array(0...100))
    }

    @Test func callbacksKeepRegistrationOrderOnEachSerialQueueAndRunOnIt() async {
        let promise = Promise<Int, Never>()
        let key = DispatchSpecificKey<Int>()
        let queues = (0..<4).map { lane in
            let queue = DispatchQueue(label: "q\(lane)")
            queue.setSpecific(key: key, value: lane)
            return queue
        }
        let orders = (0..<4).map { _ in Recorder<Int>() }
        let offQueue = Counter()
        let done = (0..<4).map { _ in Promise<Void, Never>() }
        let count = 200
        for index in 0..<count {
            let lane = index % 4
            promise.future.onComplete(ExecutionContext(queue: queues[lane])) { _ in
                if DispatchQueue.getSpecific(key: key) != lane { offQueue.increment() }
                orders[lane].append(index)
                if index >= count - 4 { done[lane].success(()) }
            }
        }
        promise.success(1)
        for lane in 0..<4 { await done[lane].future.get() }
        for lane in 0..<4 {
            #expect(orders[lane].values == Array(stride(from: lane, to: count, by: 4)))
        }
        #expect(offQueue.value == 0)
    }

    @Test func mapAndFlatMapChainTransformValues() {
        let promise = Promise<Int, FuturesError>()
        let chained = promise.future
            .map(immediateExecutionContext) { $0 + 1 }
            .flatMap(immediateExecutionContext) { Future(value: $0 * 10) }
            .map(immediateExecutionContext) { "\($0)" }
        #expect(!chained.isCompleted)
        promise.success(4)
        #expect(chained.value == "50")
    }

    @Test func failuresSkipMapAndFlatMap() {
        let ran = Counter()
        let chained = Future<Int, FuturesError>(error: .cancelled)
            .map(immediateExecutionContext) { value -> Int in
                ran.increment()
                return value
            }
            .flatMap(immediateExecutionContext) { _ -> Future<Int, FuturesError> in
                ran.increment()
                return Future(value: 1)
            }
        #expect(chained.error == .cancelled)
        #expect(ran.value == 0)
    }

    @Test func aMillionImmediateMapsCompleteWithoutStackOverflow() {
        let promise = Promise<Int, Never>()
        var future = promise.future
        for _ in 0..<testDepth {
            future = future.map(immediateExecutionContext) { $0 + 1 }
        }
        promise.success(0)
        #expect(future.value == testDepth)
    }

    @Test func aHundredThousandNestedFlatMapsCompleteWithoutStackOverflow() {
        let promise = Promise<Int, Never>()
        let inner = Promise<Int, Never>()
        var future = promise.future
        for _ in 0..<100_000 {
            // Each step waits on a pending inner future, so completion cascades through both lists.
            future = future.flatMap(immediateExecutionContext) { value in
                inner.future.map(immediateExecutionContext) { value + $0 }
            }
        }
        promise.success(0)
        inner.success(1)
        #expect(future.value == 100_000)
    }

    @Test func aCompletedFutureReleasesItsCallbacks() {
        weak var captured: AnyObject?
        let promise = Promise<Int, Never>()
        do {
            final class Payload: Sendable {}
            let payload = Payload()
            captured = payload
            promise.future.onSuccess(immediateExecutionContext) { _ in _ = payload }
        }
        #expect(captured != nil)
        promise.success(1)
        #expect(captured == nil)
    }

    @Test func aChainDoesNotRetainItself() {
        weak var weakRoot: Future<Int, Never>?
        weak var weakMapped: Future<Int, Never>?
        do {
            let root = Future<Int, Never>()
            let mapped = root.map(immediateExecutionContext) { $0 }.map(immediateExecutionContext) { $0 }
            weakRoot = root
            weakMapped = mapped
            #expect(weakRoot != nil && weakMapped != nil)
        }
        #expect(weakRoot == nil)
        #expect(weakMapped == nil)
    }

    @Test func aDerivedFutureLivesWhileItsSourceCanStillCompleteIt() {
        let promise = Promise<Int, Never>()
        weak var weakMapped: Future<Int, Never>?
        do {
            weakMapped = promise.future.map(immediateExecutionContext) { $0 + 1 }
        }
        #expect(weakMapped != nil, "the source's callback must keep the derived future alive")
        promise.success(1)
        #expect(weakMapped == nil, "and release it once it has run")
    }

    @Test func racingCompletersExactlyOneWins() async {
        for _ in 0..<200 {
            let promise = Promise<Int, Never>()
            let wins = Counter()
            await withTaskGroup(of: Void.self) { group in
                for value in 0..<4 {
                    group.addTask {
                        if promise.trySuccess(value) { wins.increment() }
                    }
                }
            }
            #expect(wins.value == 1)
        }
    }

    @Test func registrationRacingCompletionRunsEveryCallbackExactlyOnce() {
        let rounds = 2_000
        let counts = (0..<rounds).map { _ in Counter() }
        let promises = (0..<rounds).map { _ in Promise<Int, Never>() }
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in 0..<rounds {
                if worker == 0 {
                    promises[index].success(index)
                } else {
                    promises[index].future.onComplete(immediateExecutionContext) { _ in
                        counts[index].increment()
                    }
                }
            }
        }
        #expect(counts.allSatisfy { $0.value == 1 })
    }

    @Test func manyTasksAwaitOneFuture() async {
        let promise = Promise<Int, Never>()
        let total = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<1_000 {
                group.addTask { await promise.future.get() }
            }
            promise.success(2)
            return await group.reduce(0, +)
        }
        #expect(total == 2_000)
    }

    @Test func getThrowsTheTypedError() async {
        let future = Future<Int, FuturesError>(error: .timedOut)
        await #expect(throws: FuturesError.timedOut) { try await future.get() }
        let pending = Promise<Int, FuturesError>()
        DispatchQueue.global().async { pending.failure(.noSuchElement) }
        do throws(FuturesError) {
            _ = try await pending.future.get()
            Issue.record("expected a failure")
        } catch {
            #expect(error == .noSuchElement)
        }
    }

    @Test func forcedBlocksUntilCompletionAndHonoursTheDeadline() {
        let promise = Promise<Int, Never>()
        #expect(promise.future.forced(.now()) == nil)
        DispatchQueue.global().async { promise.success(7) }
        #expect(promise.future.forced().get() == 7)
    }

    @Test func completingAPromiseTwiceKeepsTheFirstResultAndReportsIt() {
        let reports = Recorder<FuturesDiagnostic>()
        FuturesDiagnostics.withHandler({ reports.append($0) }) {
            let promise = Promise<Int, Never>()
            promise.success(1)
            promise.success(2)
            #expect(promise.future.value == 1)
            #expect(!promise.trySuccess(3))
        }
        #expect(reports.values.count == 1)
        if case .promiseCompletedTwice = reports.values.first {} else { Issue.record("wrong report \(reports.values)") }
    }

    @Test func aDroppedPromiseIsReportedAndFailsAnUntypedFuture() {
        let reports = Recorder<FuturesDiagnostic>()
        let untyped: Future<Int, any Error> = FuturesDiagnostics.withHandler({ reports.append($0) }) {
            Promise<Int, any Error>().future
        }
        #expect((untyped.error as? FuturesError) == .brokenPromise)
        let typed: Future<Int, Never> = FuturesDiagnostics.withHandler({ reports.append($0) }) {
            Promise<Int, Never>().future
        }
        #expect(!typed.isCompleted)
        #expect(reports.values.count == 2)
    }

    @Test func cancellationRequestsReachTheProducerOnce() {
        let promise = Promise<Int, FuturesError>()
        let calls = Counter()
        promise.future.onCancellationRequested {
            calls.increment()
            promise.failure(.cancelled)
        }
        promise.future.requestCancellation()
        promise.future.requestCancellation()
        #expect(calls.value == 1)
        #expect(promise.future.error == .cancelled)
        #expect(promise.future.isCancellationRequested)
    }

    @Test func defaultContextCanBeReplacedForATaskTree() {
        let result = DefaultExecutionContext.withDefault(immediateExecutionContext) {
            Future<Int, Never>(value: 1).map { $0 + 1 }.value
        }
        #expect(result == 2)
    }
}

/// `Future { complete in … }` is the resolver form, whatever its closure's body looks like: the
/// cancellable form (`init(cancellable:)`) is spelled with its label.
extension FutureCoreTests {
    @Test func aTrailingResolverClosureOfManyStatementsIsTheResolverForm() async {
        let future = Future<Int, Never> { complete in
            let value = 1
            DispatchQueue.global().async {
                complete(.success(value))
            }
        }
        #expect(await future.get() == 1)
    }

    @Test func aTrailingResolverClosureOfOneStatementIsTheResolverForm() {
        let future = Future<Int, Never> { complete in complete(.success(1)) }
        #expect(future.value == 1)
        let untyped = Future<Int, any Error> { complete in
            let error = ComboError.first
            complete(.failure(error))
        }
        #expect(untyped.error as? ComboError == .first)
    }

    /// BrightFutures' spelling, with the type inferred from the context.
    @Test func theResolverFormWithAnInferredType() {
        let future: Future<Int, Never> = Future { complete in complete(.success(1)) }
        #expect(future.value == 1)
    }

    /// The labelled cancellable form is still the cancellable one: its hook runs on a request.
    @Test func theLabelledCancellableFormKeepsItsHook() {
        let hookCalls = Counter()
        let future = Future<Int, Never>(cancellable: { complete in
            let value = 1
            _ = value
            return { hookCalls.increment() }
        })
        future.requestCancellation()
        #expect(hookCalls.value == 1)
        #expect(!future.isCompleted, "`Never` cannot hold `cancelled`: the future waits for the API")
    }
}
