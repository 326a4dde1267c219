import Testing

@testable import Futures

@Suite("retry on virtual time: attempts, back-off, while:", .hangGuard())
struct RetryTests {
    let tick = RecordingClock.tick

    @Test func exponentialBackOffWaitsLongerBeforeEachAttemptThenGivesUp() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let attempts = Recorder<Duration>()
        let retried = Future<Int, Flaky>.retry(4, backoff: .exponential(initial: .seconds(1)), clock: clock) {
            attempts.append(clock.elapsed)
            return Future(error: .transient(attempts.values.count))
        }
        var expectedWaits: [Duration] = []
        for _ in 0..<3 {
            guard let wait = await waits.next() else {
                Issue.record("the retry stopped waiting before its third back-off")
                return
            }
            expectedWaits.append(wait)
            await clock.advance(by: wait + tick)
        }
        // Each wait is recorded when its timer starts sleeping; the back-off's deadline was set a moment
        // before, possibly while the previous `advance` was still moving virtual time by its last tick.
        let backOff: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]
        #expect(expectedWaits.count == backOff.count)
        for (wait, planned) in zip(expectedWaits, backOff) {
            #expect(wait <= planned && wait >= planned - tick * 3, "waited \(wait), planned \(planned)")
        }
        #expect(await retried.settledResult() == .failure(.transient(4)))
        #expect(attempts.values.count == 4)
        // Each attempt starts no earlier than the sum of the waits before it.
        let starts = attempts.values
        #expect(starts[0] == .zero)
        #expect(starts[1] >= .seconds(1) && starts[2] >= .seconds(3) && starts[3] >= .seconds(7))
    }

    @Test func aSuccessStopsRetrying() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let calls = Counter()
        let retried = Future<String, Flaky>.retry(5, delay: .milliseconds(250), clock: clock) {
            calls.increment() < 3 ? Future(error: .transient(calls.value)) : Future(value: "ok")
        }
        for _ in 0..<2 {
            #expect(await waits.next() == .milliseconds(250))
            await clock.advance(by: .milliseconds(250) + tick)
        }
        #expect(await retried.settledResult() == .success("ok"))
        #expect(calls.value == 3)
    }

    @Test func thePredicateDecidesWhichFailuresAreRetried() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let script: [Flaky] = [.transient(1), .transient(2), .fatal(3), .transient(4)]
        let calls = Counter()
        let asked = Recorder<Flaky>()
        let retried = Future<Int, Flaky>.retry(
            10,
            delay: .seconds(1),
            clock: clock,
            while: { error in
                asked.append(error)
                if case .transient = error { return true }
                return false
            }
        ) {
            Future(error: script[calls.increment() - 1])
        }
        for _ in 0..<2 {
            _ = await waits.next()
            await clock.advance(by: .seconds(1) + tick)
        }
        #expect(await retried.settledResult() == .failure(.fatal(3)))
        #expect(calls.value == 3)
        #expect(asked.values == [.transient(1), .transient(2), .fatal(3)])
    }

    @Test func aZeroDelayRetriesAtOnceWithoutTheClock() {
        let calls = Counter()
        let retried = Future<Int, Flaky>.retry(1_000, clock: RecordingClock()) {
            Future(error: .transient(calls.increment()))
        }
        #expect(retried.error == .transient(1_000))
        #expect(calls.value == 1_000)
    }

    @Test func attemptsBelowOneMakeOneAttempt() {
        let calls = Counter()
        let retried = Future<Int, Flaky>.retry(0) { Future(error: .transient(calls.increment())) }
        #expect(retried.error == .transient(1))
        #expect(calls.value == 1)
    }

    @Test func cancellingDuringAWaitStopsRetrying() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        var endings = clock.endings.makeAsyncIterator()
        let calls = Counter()
        let typed = Future<Int, Flaky>.retry(3, delay: .seconds(1), clock: clock) {
            Future(error: .transient(calls.increment()))
        }
        _ = await waits.next()
        typed.requestCancellation()
        #expect(typed.error == .transient(1))  // `Flaky` cannot say "cancelled": the last failure
        #expect(await endings.next() == .cancelled)
        #expect(calls.value == 1)

        let untyped = Future<Int, any Error>.retry(3, delay: .seconds(1), clock: clock) {
            Future(error: Flaky.fatal(0))
        }
        _ = await waits.next()
        untyped.requestCancellation()
        #expect(untyped.error as? FuturesError == .cancelled)
    }

    @Test func cancellingDuringAnAttemptIsPassedToIt() {
        let attempt = Promise<Int, Flaky>()
        attempt.future.onCancellationRequested { attempt.failure(.fatal(-1)) }
        let calls = Counter()
        let retried = Future<Int, Flaky>.retry(3, clock: RecordingClock()) {
            calls.increment()
            return attempt.future
        }
        retried.requestCancellation()
        #expect(retried.error == .fatal(-1))
        #expect(calls.value == 1)
    }

    @Test func backOffShapes() {
        let exponential = RetryBackoff.exponential(initial: .seconds(1), multiplier: 3, maximum: .seconds(10))
        #expect((1...5).map { exponential.delay(beforeRetry: $0) } == [1, 3, 9, 10, 10].map { Duration.seconds($0) })
        let constant = RetryBackoff.constant(.milliseconds(5))
        #expect(
            constant.delay(beforeRetry: 1) == .milliseconds(5) && constant.delay(beforeRetry: 9) == .milliseconds(5))
        let custom = RetryBackoff.custom { .seconds($0 * $0) }
        #expect(custom.delay(beforeRetry: 3) == .seconds(9))
        #expect(RetryBackoff.custom { _ in .seconds(-1) }.delay(beforeRetry: 1) == .zero)
        #expect(RetryBackoff.immediate.delay(beforeRetry: 4) == .zero)
        let unbounded = RetryBackoff.exponential(initial: .seconds(1))
        #expect(unbounded.delay(beforeRetry: 4) == .seconds(8))
        #expect(unbounded.delay(beforeRetry: 500) == .seconds(1_000_000_000))
    }
}
