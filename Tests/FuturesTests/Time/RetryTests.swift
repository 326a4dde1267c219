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
        let retried = Future<String, Flaky>.retry(5, backoff: .constant(.milliseconds(250)), clock: clock) {
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
            backoff: .constant(.seconds(1)),
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
        let typed = Future<Int, Flaky>.retry(3, backoff: .constant(.seconds(1)), clock: clock) {
            Future(error: .transient(calls.increment()))
        }
        _ = await waits.next()
        typed.requestCancellation()
        #expect(typed.error == .transient(1))  // `Flaky` cannot say "cancelled": the last failure
        #expect(await endings.next() == .cancelled)
        #expect(calls.value == 1)

        let untyped = Future<Int, any Error>.retry(3, backoff: .constant(.seconds(1)), clock: clock) {
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

    /// How the retry enters the attempt whose creation a cancellation request interrupts.
    enum Entry: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The attempt before it was pending and fails later: with no back-off, the next attempt starts on
        /// the thread that fails it.
        case afterAPendingAttemptFails
        /// The attempt before it had failed already when `operation` returned it: with no back-off, the
        /// next attempt starts at once, while the retry is still taking in the failed one.
        case afterAnAttemptThatFailedAlready
        /// After a back-off: the timer's task on the virtual clock starts the attempt.
        case afterABackOff

        var testDescription: String { rawValue }
    }

    /// A retry whose `operation` requests cancellation of the retried future while it creates an attempt
    /// (entered as `entry` says) and returns that attempt: the future of a promise whose producer has no
    /// cancellation handler yet. Returns once the retry has taken the attempt in, with the attempt's
    /// promise and the number of `operation` calls.
    ///
    /// The test registers the producer's handler only afterwards, so a request reaches the attempt only
    /// if the retry hands it over itself: at `depend` time the attempt accepts no requests, and nothing
    /// is linked to it.
    private func retryInterruptedWhileCreatingAnAttempt<E: Error>(
        _ entry: Entry,
        failure: @escaping @Sendable (Int) -> E,
        _ retry: (RetryBackoff, RecordingClock, @escaping @Sendable () -> Future<Int, E>) -> Future<Int, E>
    ) async -> (retried: Future<Int, E>, attempt: Promise<Int, E>, calls: Counter) {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        // The first attempt, pending, when the attempt before the interrupted one is to fail later.
        let pending = entry == .afterABackOff ? nil : Promise<Int, E>()
        let interrupted = Promise<Int, E>()
        let retriedSlot = LockedBox<Future<Int, E>?>(nil)
        let calls = Counter()
        let interruptedCall = entry == .afterAnAttemptThatFailedAlready ? 3 : 2
        let backoff: RetryBackoff = entry == .afterABackOff ? .constant(.seconds(1)) : .immediate
        let retried = retry(backoff, clock) {
            let call = calls.increment()
            if call == interruptedCall {
                retriedSlot.value?.requestCancellation()  // while `operation` creates this attempt
                return interrupted.future
            }
            if call == 1, let pending { return pending.future }
            return Future(error: failure(call))
        }
        retriedSlot.value = retried
        switch entry {
        case .afterAPendingAttemptFails, .afterAnAttemptThatFailedAlready:
            pending?.failure(failure(1))  // no back-off: the next attempts start now, on this thread
            #expect(calls.value == interruptedCall)
            #expect(interrupted.future.isCancellationRequested, "the attempt was not asked")
        case .afterABackOff:
            #expect(await waits.next() == .seconds(1))
            await clock.advance(by: .seconds(1) + tick)
            // The timer's task creates the attempt; the retry's hand-over is the only thing that marks it.
            #expect(await gEventually { interrupted.future.isCancellationRequested }, "the attempt was not asked")
            #expect(calls.value == interruptedCall)
        }
        retriedSlot.value = nil
        return (retried, interrupted, calls)
    }

    @Test(arguments: Entry.allCases)
    func cancellingWhileOperationCreatesAnAttemptIsPassedToItsProducerLater(entry: Entry) async {
        let (retried, attempt, calls) = await retryInterruptedWhileCreatingAnAttempt(entry, failure: Flaky.transient) {
            Future<Int, Flaky>.retry(5, backoff: $0, clock: $1, $2)
        }
        #expect(!retried.isCompleted)  // `Flaky` cannot say "cancelled": the attempt answers
        let asked = Counter()
        attempt.future.onCancellationRequested {
            asked.increment()
            attempt.failure(.fatal(2))
        }
        #expect(asked.value == 1)
        #expect(retried.error == .fatal(2))
        retried.requestCancellation()
        #expect(asked.value == 1)
        #expect(calls.value == (entry == .afterAnAttemptThatFailedAlready ? 3 : 2))
    }

    @Test(arguments: Entry.allCases)
    func cancellingWhileOperationCreatesAnAttemptFailsWithTheCancellationErrorAndStillAsksTheAttempt(
        entry: Entry
    ) async {
        let (untyped, untypedAttempt, untypedCalls) = await retryInterruptedWhileCreatingAnAttempt(
            entry, failure: { Flaky.transient($0) }
        ) { Future<Int, any Error>.retry(5, backoff: $0, clock: $1, $2) }
        #expect(untyped.error as? FuturesError == .cancelled)
        let untypedAsked = Counter()
        untypedAttempt.future.onCancellationRequested {
            untypedAsked.increment()
            untypedAttempt.failure(Flaky.fatal(2))
        }
        #expect(untypedAsked.value == 1)
        #expect(untypedAttempt.future.error as? Flaky == .fatal(2))
        #expect(untyped.error as? FuturesError == .cancelled)  // the retry had failed already
        #expect(untypedCalls.value == (entry == .afterAnAttemptThatFailedAlready ? 3 : 2))

        let typed = await retryInterruptedWhileCreatingAnAttempt(entry, failure: Flaky.transient) {
            Future<Int, Flaky>.retry(5, backoff: $0, clock: $1, failingWith: .fatal(-7), $2)
        }
        #expect(typed.retried.error == .fatal(-7))
        let typedAsked = Counter()
        typed.attempt.future.onCancellationRequested {
            typedAsked.increment()
            typed.attempt.failure(.fatal(2))
        }
        #expect(typedAsked.value == 1)
        #expect(typed.attempt.future.error == .fatal(2))
        #expect(typed.retried.error == .fatal(-7))
        #expect(typed.calls.value == (entry == .afterAnAttemptThatFailedAlready ? 3 : 2))
    }

    @Test func cancellingWhileOperationReturnsAFailedAttemptStartsNoFurtherAttempt() {
        let first = Promise<Int, Flaky>()
        let typedSlot = LockedBox<Future<Int, Flaky>?>(nil)
        let typedCalls = Counter()
        let typed = Future<Int, Flaky>.retry(5, clock: RecordingClock()) {
            if typedCalls.increment() == 1 { return first.future }
            typedSlot.value?.requestCancellation()
            return Future(error: .transient(2))
        }
        typedSlot.value = typed
        first.failure(.transient(1))
        #expect(typed.error == .transient(2))  // `Flaky` cannot say "cancelled": that attempt's failure
        #expect(typedCalls.value == 2)
        typedSlot.value = nil

        let untypedFirst = Promise<Int, any Error>()
        let untypedSlot = LockedBox<Future<Int, any Error>?>(nil)
        let untypedCalls = Counter()
        let untyped = Future<Int, any Error>.retry(5, clock: RecordingClock()) {
            if untypedCalls.increment() == 1 { return untypedFirst.future }
            untypedSlot.value?.requestCancellation()
            return Future(error: Flaky.transient(2))
        }
        untypedSlot.value = untyped
        untypedFirst.failure(Flaky.transient(1))
        #expect(untyped.error as? FuturesError == .cancelled)
        #expect(untypedCalls.value == 2)
        untypedSlot.value = nil
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
