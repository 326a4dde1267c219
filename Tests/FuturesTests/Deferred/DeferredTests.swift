import Dispatch
import Testing

@testable import Futures

@Suite("Deferred: lazy, repeatable computations", .hangGuard())
struct DeferredTests {
    @Test func nothingRunsUntilExecutedAndEachExecutionRunsAgain() {
        let starts = Counter()
        let mapped = Counter()
        let source = Deferred<Int, Never> { complete in complete(.success(starts.increment())) }
        let chain = source.map { value -> Int in
            mapped.increment()
            return value * 10
        }.flatMap { Deferred.unit($0 + 1) }
        #expect(starts.value == 0 && mapped.value == 0)

        let results = Recorder<Int>()
        chain.execute { results.append($0.get()) }
        #expect(starts.value == 1 && mapped.value == 1)
        chain.execute { results.append($0.get()) }
        #expect(starts.value == 2 && mapped.value == 2)
        #expect(results.values == [11, 21])
    }

    @Test func runStartsOneExecutionWhoseFutureIsSharedByItsObservers() {
        let starts = Counter()
        let promise = Promise<Int, Never>()
        let deferred = Deferred<Int, Never>(starting: {
            starts.increment()
            return promise.future
        })
        let future = deferred.map { $0 + 1 }.run()
        #expect(starts.value == 1 && !future.isCompleted)
        let seen = Recorder<Int>()
        future.onSuccess(immediateExecutionContext) { seen.append($0) }
        future.onSuccess(immediateExecutionContext) { seen.append($0) }
        promise.success(41)
        #expect(seen.values == [42, 42])
        #expect(starts.value == 1)
    }

    @Test func aFailureSkipsTheRestOfTheChain() {
        let later = Counter()
        let chain = Deferred<Int, FuturesError>.failure(.noSuchElement)
            .map { value -> Int in
                later.increment()
                return value
            }
            .flatMap { value -> Deferred<Int, FuturesError> in
                later.increment()
                return .unit(value)
            }
        #expect(chain.run().error == .noSuchElement)
        #expect(later.value == 0)
        let failedInTheMiddle = Deferred<Int, FuturesError>.unit(1)
            .flatMap { _ in Deferred<Int, FuturesError>.failure(.timedOut) }
            .map { $0 + 1 }
        #expect(failedInTheMiddle.run().error == .timedOut)
    }

    @Test func mapErrorTransformsOnlyFailures() {
        struct Wrapped: Error, Equatable { let inner: FuturesError }
        let failed = Deferred<Int, FuturesError>.failure(.timedOut).mapError { Wrapped(inner: $0) }
        #expect(failed.run().error == Wrapped(inner: .timedOut))
        let succeeded = Deferred<Int, FuturesError>.unit(3).mapError { Wrapped(inner: $0) }
        #expect(succeeded.run().value == 3)
    }

    @Test func completingATrunkTwiceKeepsTheFirstResultAndIsReported() {
        let reports = Recorder<FuturesDiagnostic>()
        FuturesDiagnostics.withHandler({ reports.append($0) }) {
            let twice = Deferred<Int, Never> { complete in
                complete(.success(1))
                complete(.success(2))
            }
            #expect(twice.run().value == 1)
        }
        #expect(reports.values.count == 1)
        if case .futureCompletedTwice = reports.values.first {
        } else {
            Issue.record("expected futureCompletedTwice, got \(reports.values)")
        }
    }

    @Test func executeDeliversOnTheGivenContext() async {
        let queue = DispatchQueue(label: "deferred.callback")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let done = Promise<Int?, Never>()
        Deferred<Int, Never>.unit(1).execute(ExecutionContext(queue: queue)) { _ in
            done.success(DispatchQueue.getSpecific(key: key))
        }
        #expect(await done.future.get() == 7)
    }

    @Test func aCancellationRequestReachesTheStepThatIsRunning() {
        let firstCancelled = Counter()
        let secondCancelled = Counter()
        let first = Promise<Int, FuturesError>()
        let second = Promise<Int, FuturesError>()
        @Sendable func step(_ promise: Promise<Int, FuturesError>, _ counter: Counter) -> Deferred<Int, FuturesError> {
            Deferred(starting: {
                promise.future.onCancellationRequested {
                    counter.increment()
                    promise.tryFailure(.cancelled)
                }
                return promise.future
            })
        }
        let running = step(first, firstCancelled).flatMap { _ in step(second, secondCancelled) }.run()
        first.success(1)
        running.requestCancellation()
        #expect(firstCancelled.value == 0 && secondCancelled.value == 1)
        #expect(running.error == .cancelled)
    }

    @Test func aLongChainStartsAndCompletesInBoundedStack() {
        var chain = Deferred<Int, Never>.unit(0)
        for _ in 0..<100_000 {
            chain = chain.flatMap { Deferred.unit($0 + 1) }
        }
        #expect(chain.run().value == 100_000)
    }
}

@Suite("Deferred: retry and async get", .hangGuard())
struct DeferredRetryTests {
    @Test func retryRunsAFreshExecutionForEachAttempt() async {
        let executions = Counter()
        let flaky = Deferred<Int, Flaky> { complete in
            let attempt = executions.increment()
            complete(attempt < 3 ? .failure(.transient(attempt)) : .success(attempt))
        }
        let retried = flaky.retry(5)
        #expect(executions.value == 0)
        #expect(await retried.run().settledResult() == .success(3))
        #expect(executions.value == 3)
        #expect(await retried.run().settledResult() == .success(4))  // executing again retries again
    }

    @Test func retryWaitsOnTheClockAndHonoursWhile() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let executions = Counter()
        let failing = Deferred<Int, Flaky> { complete in complete(.failure(.transient(executions.increment()))) }
            .retry(3, backoff: .constant(.seconds(2)), clock: clock, while: { $0 != .transient(2) })
        let running = failing.run()
        #expect(await waits.next() == .seconds(2))
        await clock.advance(by: .seconds(2) + RecordingClock.tick)
        #expect(await running.settledResult() == .failure(.transient(2)))
        #expect(executions.value == 2)
    }

    @Test func getExecutesAndAwaits() async throws {
        let executions = Counter()
        let deferred = Deferred<Int, Flaky> { complete in complete(.success(executions.increment())) }
        #expect(try await deferred.get() == 1)
        #expect(try await deferred.get() == 2)
        await #expect(throws: Flaky.fatal(1)) { try await Deferred<Int, Flaky>.failure(.fatal(1)).get() }
    }
}
