import Dispatch
import Testing

@testable import Futures

@Suite("FutureStream: replay, order, ending, combinators")
struct FutureStreamTests {
    @Test func aNewSubscriberGetsTheLastCapacityResultsThenLiveOnes() {
        let promise = StreamPromise<Int>(capacity: 3)
        for value in 1...5 { promise.success(value) }
        #expect(promise.stream.count == 3)
        let seen = Recorder<Int>()
        promise.stream.onSuccess(context: immediate) { seen.append($0) }
        #expect(seen.values == [3, 4, 5])
        promise.success(6)
        #expect(seen.values == [3, 4, 5, 6])
        #expect(promise.stream.count == 3)
    }

    @Test func capacityZeroReplaysNothing() {
        let promise = StreamPromise<Int>(capacity: 0)
        promise.success(1)
        let seen = Recorder<Int>()
        promise.stream.onSuccess(context: immediate) { seen.append($0) }
        promise.success(2)
        #expect(seen.values == [2] && promise.stream.count == 0)
    }

    @Test func initializersHoldOneResult() {
        let value = FutureStream(value: 1, capacity: 10)
        let error = FutureStream<Int>(error: ParseError.notANumber("i"), capacity: 10)
        let empty = FutureStream<Int>(capacity: 4)
        #expect(value.count == 1 && error.count == 1 && empty.count == 0 && empty.capacity == 4)
        // Nothing can write into them, so they are finished: loops over them end.
        #expect(value.isFinished && error.isFinished && empty.isFinished)
        let results = Recorder<String>()
        value.onComplete(context: immediate) { results.append("\((try? $0.get()) ?? -1)") }
        error.onFailure(context: immediate) { results.append("\($0)") }
        #expect(results.values == ["1", "notANumber(\"i\")"])
    }

    @Test func callbacksSeeValuesAndFailuresInOrder() {
        let promise = StreamPromise<Int>()
        let all = Recorder<String>()
        let failures = Recorder<String>()
        promise.stream.onComplete(context: immediate) { result in
            switch result {
            case .success(let value): all.append("v\(value)")
            case .failure: all.append("e")
            }
        }
        promise.stream.onFailure(context: immediate) { failures.append("\($0)") }
        promise.success(1)
        promise.failure(ParseError.notANumber("x"))
        promise.complete(.success(2))
        #expect(all.values == ["v1", "e", "v2"])
        #expect(failures.values == ["notANumber(\"x\")"])
    }

    @Test func aSubscriberOnAQueueGetsEveryValueInOrder() async {
        let promise = StreamPromise<Int>(capacity: 10)
        let seen = Recorder<Int>()
        let done = Promise<Void, Never>()
        promise.stream.onSuccess(context: ExecutionContext(queue: .global())) { value in
            seen.append(value)
            if value == 999 { done.success(()) }
        }
        for value in 0..<1000 { promise.success(value) }
        await done.future.get()
        #expect(seen.values == Array(0..<1000))
    }

    @Test func finishingEndsTheStreamAndRefusesLaterResults() {
        let promise = StreamPromise<Int>(capacity: 2)
        let ends = Recorder<String>()
        promise.stream.onFinish(context: immediate) { ends.append($0 == nil ? "finished" : "failed") }
        promise.success(1)
        promise.finish()
        promise.success(2)
        #expect(!promise.tryComplete(.success(3)))
        #expect(promise.stream.isFinished)
        #expect(ends.values == ["finished"])
        // A late subscriber gets the replay, then the end at once.
        let late = Recorder<Int>()
        promise.stream.onSuccess(context: immediate) { late.append($0) }
        promise.stream.onFinish(context: immediate) { _ in late.append(-1) }
        #expect(late.values == [1, -1])
        promise.finish(throwing: FuturesError.timedOut)  // ignored: already finished
        #expect(ends.values == ["finished"])
    }

    @Test func aTerminalFailureIsReportedToOnFinish() {
        let promise = StreamPromise<Int>()
        let ends = Recorder<String>()
        promise.stream.onFinish(context: immediate) { ends.append("\(String(describing: $0))") }
        promise.finish(throwing: FuturesError.timedOut)
        #expect(ends.values == ["Optional(Futures.FuturesError.timedOut)"])
    }

    @Test func droppingTheLastPromiseFinishesTheStream() {
        var promise: StreamPromise<Int>? = StreamPromise<Int>()
        let stream = promise!.stream
        promise?.success(1)
        promise = nil
        #expect(stream.isFinished && stream.count == 1)
    }

    @Test func mapTransformsValuesAndTurnsThrowsIntoFailures() {
        let promise = StreamPromise<String>()
        let mapped: FutureStream<Int> = promise.stream.map(context: immediate) { try parse($0) }
        let seen = Recorder<String>()
        mapped.onComplete(context: immediate) { seen.append("\($0.map { "\($0)" })") }
        promise.success("1")
        promise.success("x")
        promise.failure(FuturesError.timedOut)
        #expect(
            seen.values == [
                "success(\"1\")", "failure(FuturesTests.ParseError.notANumber(\"x\"))",
                "failure(Futures.FuturesError.timedOut)",
            ])
        #expect(mapped.capacity == promise.stream.capacity)
    }

    @Test func unlabelledMapStaysAFutureStream() {
        DefaultExecutionContext.withDefault(immediate) {
            let promise = StreamPromise<Int>()
            let mapped = promise.stream.map { $0 + 1 }
            let filtered = mapped.withFilter { $0 > 1 }
            let seen = Recorder<Int>()
            filtered.onSuccess { seen.append($0) }
            promise.success(1)
            promise.success(0)
            #expect(seen.values == [2])
            let isStream: Bool = (mapped as AnyObject) is FutureStream<Int>
            #expect(isStream)
        }
    }

    @Test func withFilterTurnsRejectedValuesIntoNoSuchElement() {
        let promise = StreamPromise<Int>()
        let seen = Recorder<String>()
        promise.stream.withFilter(context: immediate) { $0 % 2 == 0 }
            .onComplete(context: immediate) { result in
                seen.append((try? result.get()).map { "\($0)" } ?? "\(result)")
            }
        promise.success(2)
        promise.success(3)
        #expect(seen.values == ["2", "failure(Futures.FuturesError.noSuchElement)"])
    }

    @Test func forEachAndAndThenSeeEveryValue() {
        let promise = StreamPromise<Int>()
        let seen = Recorder<String>()
        promise.stream.forEach(context: immediate) { seen.append("each\($0)") }
        let passed = promise.stream.andThen(context: immediate) { seen.append("then\($0)") }
        passed.onSuccess(context: immediate) { seen.append("after\($0)") }
        promise.success(1)
        #expect(seen.values == ["each1", "then1", "after1"])
    }

    @Test func recoverAndMapErrorHandleFailures() {
        let promise = StreamPromise<Int>()
        let recovered = Recorder<Int>()
        promise.stream.recover(context: immediate) { _ in -1 }.onSuccess(context: immediate) { recovered.append($0) }
        let mappedErrors = Recorder<String>()
        promise.stream.mapError(context: immediate) { _ in FuturesError.noSuchElement }
            .onFailure(context: immediate) { mappedErrors.append("\($0)") }
        promise.success(1)
        promise.failure(ParseError.notANumber("x"))
        #expect(recovered.values == [1, -1])
        #expect(mappedErrors.values == ["noSuchElement"])
    }

    @Test func flatMapToStreamsAndFuturesForwardsResultsAndEndsWhenAllEnded() {
        let promise = StreamPromise<Int>()
        let inner = StreamPromise<String>()
        let viaStream = promise.stream.flatMap(context: immediate) { value -> FutureStream<String> in
            guard value > 0 else { throw ParseError.notANumber("\(value)") }
            return inner.stream
        }
        let pending = Promise<String, any Error>()
        let viaFuture = promise.stream.flatMap(context: immediate) { value -> Future<String, any Error> in
            value == 1 ? pending.future : Future(value: "f\(value)")
        }
        let streamSeen = Recorder<String>()
        let futureSeen = Recorder<String>()
        viaStream.onComplete(context: immediate) { streamSeen.append((try? $0.get()) ?? "error") }
        viaStream.onFinish(context: immediate) { _ in streamSeen.append("end") }
        viaFuture.onSuccess(context: immediate) { futureSeen.append($0) }
        viaFuture.onFinish(context: immediate) { _ in futureSeen.append("end") }
        promise.success(1)
        inner.success("a")
        promise.success(2)
        promise.success(0)
        promise.finish()
        #expect(futureSeen.values == ["f2", "f0"])  // waits for the pending future before ending
        pending.success("late")
        #expect(futureSeen.values == ["f2", "f0", "late", "end"])
        // The inner stream is shared by two values, so each of its results arrives twice.
        inner.success("b")
        #expect(streamSeen.values == ["a", "a", "error", "b", "b"])
        inner.finish()
        #expect(streamSeen.values.last == "end")
    }

    @Test func recoverWithToStreamsAndFutures() {
        let promise = StreamPromise<Int>()
        let viaFuture = Recorder<Int>()
        promise.stream.recoverWith(context: immediate) { _ in Future<Int, any Error>(value: 0) }
            .onSuccess(context: immediate) { viaFuture.append($0) }
        let viaStream = Recorder<Int>()
        promise.stream.recoverWith(context: immediate) { _ in FutureStream(value: 7) }
            .onSuccess(context: immediate) { viaStream.append($0) }
        promise.success(1)
        promise.failure(ParseError.notANumber("x"))
        #expect(viaFuture.values == [1, 0])
        #expect(viaStream.values == [1, 7])
    }

    @Test func aTerminalFailurePropagatesThroughCombinators() {
        let promise = StreamPromise<Int>()
        let ends = Recorder<String>()
        promise.stream.map(context: immediate) { $0 }.withFilter(context: immediate) { _ in true }
            .onFinish(context: immediate) { ends.append("\(String(describing: $0))") }
        promise.finish(throwing: FuturesError.timedOut)
        #expect(ends.values == ["Optional(Futures.FuturesError.timedOut)"])
    }

    @Test func futureFlatMapAndRecoverWithIntoStreams() {
        let stream = StreamPromise<Int>()
        let fromValue = Future<Int, any Error>(value: 1)
            .flatMap(capacity: 5, context: immediate) { _ -> FutureStream<Int> in stream.stream }
        let seen = Recorder<Int>()
        fromValue.onSuccess(context: immediate) { seen.append($0) }
        stream.success(10)
        stream.finish()
        #expect(seen.values == [10] && fromValue.isFinished && fromValue.capacity == 5)

        let failed = Future<Int, any Error>(error: FuturesError.timedOut)
            .flatMap(context: immediate) { _ -> FutureStream<Int> in stream.stream }
        #expect(failed.isFinished && failed.count == 1)

        let recovered = Future<Int, any Error>(error: FuturesError.timedOut)
            .recoverWith(capacity: 3, context: immediate) { _ in FutureStream(value: 4) }
        let recoveredSeen = Recorder<Int>()
        recovered.onSuccess(context: immediate) { recoveredSeen.append($0) }
        #expect(recoveredSeen.values == [4])
        let passed = Future<Int, any Error>(value: 2).recoverWith(context: immediate) { _ in FutureStream<Int>(value: 4)
        }
        #expect(passed.isFinished && passed.count == 1)
    }

    @Test func aPendingFutureFeedsItsStreamOnceCompletedAndATokenFinishesItUnfed() {
        // Pending entry: the body runs when the future completes, not before.
        let promise = Promise<Int, any Error>()
        let ran = Recorder<Int>()
        let fed = promise.future.flatMap(capacity: 4, context: immediate) { value -> FutureStream<Int> in
            ran.append(value)
            return FutureStream(value: value * 10)
        }
        #expect(ran.values.isEmpty && !fed.isFinished)
        promise.success(3)
        let seen = Recorder<Int>()
        fed.onSuccess(context: immediate) { seen.append($0) }
        #expect(ran.values == [3] && seen.values == [30] && fed.isFinished)

        // A token: cancelling it takes the body back, and the stream finishes with nothing in it.
        let token = CancelToken()
        let later = Promise<Int, any Error>()
        let mapped = later.future.flatMap(context: immediate, cancelToken: token) { value -> FutureStream<Int> in
            ran.append(value)
            return FutureStream(value: value)
        }
        let recovering = later.future.recoverWith(context: immediate, cancelToken: token) { _ in FutureStream(value: 0)
        }
        #expect(later.future.cancel(token))
        #expect(mapped.isFinished && mapped.count == 0 && recovering.isFinished && recovering.count == 0)
        later.success(5)
        #expect(ran.values == [3] && mapped.count == 0)

        // What the body throws is the stream's only result.
        let throwing = Future<Int, any Error>(value: 1)
            .flatMap(context: immediate) { _ -> FutureStream<Int> in throw FuturesError.timedOut }
        #expect(throwing.isFinished && throwing.count == 1)
    }

    @Test func streamPromiseCompleteWithFuturesAndStreams() {
        let promise = StreamPromise<Int>()
        let source = StreamPromise<Int>()
        source.success(1)
        let future = Promise<Int, any Error>()
        promise.completeWith(context: immediate, stream: source.stream)
        promise.completeWith(context: immediate, future: future.future)
        let seen = Recorder<Int>()
        promise.stream.onSuccess(context: immediate) { seen.append($0) }
        source.success(2)
        future.success(3)
        source.finish()
        #expect(seen.values == [1, 2, 3])
        #expect(!promise.stream.isFinished)
    }

    @Test func aDerivedStreamDoesNotKeepItsSourceAlive() {
        weak var weakSource: FutureStream<Int>?
        var derived: FutureStream<Int>?
        do {
            let promise = StreamPromise<Int>()
            weakSource = promise.stream
            derived = promise.stream.map(context: immediate) { $0 }
        }
        #expect(weakSource == nil)
        #expect(derived?.isFinished == true)  // the dropped promise finished the source, and so the chain
    }

    @Test func aLongLivedStreamKeepsOnlyCapacityResults() {
        let promise = StreamPromise<[Int]>(capacity: 8)
        let counter = Counter()
        promise.stream.onSuccess(context: immediate) { _ in counter.increment() }
        for value in 0..<20_000 { promise.success([value]) }
        #expect(promise.stream.count == 8 && counter.value == 20_000)
        let replay = Recorder<Int>()
        promise.stream.onSuccess(context: immediate) { replay.append($0[0]) }
        #expect(replay.values == Array(19_992..<20_000))
    }

    @Test func aLongLivedStreamReleasesEveryResultThatLeftItsWindow() {
        let promise = StreamPromise<Tracked>(capacity: 8)
        let delivered = Counter()
        promise.stream.onSuccess(context: immediate) { _ in delivered.increment() }
        let weakValues = WeakList()
        for _ in 0..<1_000 {
            let value = Tracked()
            weakValues.append(value)
            promise.success(value)
        }
        #expect(delivered.value == 1_000)
        #expect(weakValues.aliveCount == 8)
    }

    @Test func aDeepChainOfImmediateStreamsDoesNotOverflowTheStack() {
        let promise = StreamPromise<Int>(capacity: 1)
        var stream = promise.stream
        for _ in 0..<10_000 {
            stream = stream.map(context: immediate) { $0 + 1 }
        }
        let seen = Recorder<Int>()
        stream.onSuccess(context: immediate) { seen.append($0) }
        promise.success(0)
        #expect(seen.values == [10_000])
    }
}

/// Weak references, to count how many objects are still alive.
final class WeakList: @unchecked Sendable {
    // Only used from the test's own thread.
    private struct Entry {
        weak var object: AnyObject?
    }
    private var entries: [Entry] = []
    func append(_ object: AnyObject) { entries.append(Entry(object: object)) }
    var aliveCount: Int { entries.filter { $0.object != nil }.count }
}
