import Clocks
import Testing

@testable import Futures

/// A weak reference that a `@Sendable` closure can fill in (tests check that objects are freed).
final class WeakSlot<Object: AnyObject & Sendable>: Sendable {
    private struct Reference: Sendable {
        weak var object: Object?
    }

    private let box = LockedBox(Reference())

    init(_ object: Object? = nil) {
        box.value = Reference(object: object)
    }

    var object: Object? {
        get { box.value.object }
        set { box.value = Reference(object: newValue) }
    }

    var isFreed: Bool { object == nil }
}

@Suite("Time: huge durations are clamped to 10⁹ s", .hangGuard())
struct HugeDurationTests {
    let tick = RecordingClock.tick
    let longest = Duration.seconds(1_000_000_000)

    @Test func theClampKeepsEveryDurationBetweenZeroAndTheLongestWait() {
        #expect(Duration.seconds(Int64.max).clampedForTimer == longest)
        #expect(Duration.seconds(Int64.min).clampedForTimer == .zero)
        #expect(Duration.seconds(5).clampedForTimer == .seconds(5))
        let clock = ContinuousClock()
        let deadline = timerDeadline(after: .seconds(Int64.max), on: clock)
        #expect(clock.now.duration(to: deadline) <= longest)
    }

    @Test func afterAHugeDurationWaitsForTheClampAndCompletesThere() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let future = Future.after(.seconds(Int64.max), clock: clock)
        #expect(await waits.next() == longest)
        await clock.advance(by: longest - .seconds(1))
        #expect(!future.isCompleted)
        await clock.advance(by: .seconds(1) + tick)
        await future.get()
        #expect(future.isSuccess)
    }

    /// A clock that reaches a timer's deadline before the timer's task got to sleep: the timer still fires.
    /// (A test clock's sleep waits while `deadline >= now`, so such a timer used to wait for a later advance
    /// that never came; under a sanitizer, where tasks start late, tests hung on it.)
    @Test func aTimerWhoseDeadlineWasReachedBeforeItSleptStillFires() async {
        let clock = JumpClock()
        let future = Future.after(.seconds(5), clock: clock)
        clock.jump(by: .seconds(5))  // synchronously: before the timer's task can have started sleeping
        await future.get()
        #expect(future.isSuccess)
    }

    @Test func aNegativeDurationCountsAsZero() async {
        let clock = RecordingClock()
        let future = Future.after(.seconds(Int64.min), clock: clock)
        // Clamped to zero (no overflow): due at once, so it completes without any advance of the clock.
        await future.get()
        #expect(clock.elapsed == .zero)
    }

    @Test func delayForAHugeDurationWaitsForTheClamp() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let delayed = Future<Int, Flaky>(value: 4).delay(for: .seconds(Int64.max), clock: clock)
        #expect(await waits.next() == longest)
        await clock.advance(by: longest - .seconds(1))
        #expect(!delayed.isCompleted)
        await clock.advance(by: .seconds(1) + tick)
        #expect(await delayed.settledResult() == .success(4))
    }

    @Test func timeoutAfterAHugeDurationFiresOnlyAtTheClamp() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let limited = Future<Int, Flaky>().timeout(after: .seconds(Int64.max), clock: clock)
        #expect(await waits.next() == longest)
        await clock.advance(by: longest - .seconds(1))
        #expect(!limited.isCompleted)
        await clock.advance(by: .seconds(1) + tick)
        #expect(await limited.settledResult() == .failure(.timedOut))
    }

    @Test func untypedTimeoutAfterAHugeDurationStaysPendingUntilTheClamp() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let promise = Promise<Int, any Error>()
        let limited = promise.future.timeout(after: .seconds(Int64.max), clock: clock)
        #expect(await waits.next() == longest)
        await clock.advance(by: longest - .seconds(1))
        #expect(!limited.isCompleted)
        promise.success(3)
        #expect(limited.value == 3)
    }

    @Test func retryWithAHugeConstantBackOffWaitsForTheClamp() async {
        #expect(RetryBackoff.constant(.seconds(Int64.max)).delay(beforeRetry: 1) == longest)
        #expect(RetryBackoff.custom { _ in .seconds(Int64.max) }.delay(beforeRetry: 7) == longest)
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let calls = Counter()
        let retried = Future<Int, Flaky>.retry(2, backoff: .constant(.seconds(Int64.max)), clock: clock) {
            calls.increment() == 1 ? Future(error: .transient(1)) : Future(value: 2)
        }
        #expect(await waits.next() == longest)
        await clock.advance(by: longest - .seconds(1))
        #expect(!retried.isCompleted && calls.value == 1)
        await clock.advance(by: .seconds(1) + tick)
        #expect(await retried.settledResult() == .success(2))
    }
}

@Suite("Time: cancelling after and delay(for:) stops the timer", .hangGuard())
struct TimerCancellationTests {
    let tick = RecordingClock.tick

    @Test func cancellingAfterStopsTheTimerAndTheFutureNeverCompletes() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        var endings = clock.endings.makeAsyncIterator()
        let future = Future.after(.seconds(1), clock: clock)
        let ran = Counter()
        future.onComplete(immediateExecutionContext) { _ in ran.increment() }
        _ = await waits.next()
        future.requestCancellation()
        #expect(await endings.next() == .cancelled)
        await clock.advance(by: .seconds(5))
        #expect(!future.isCompleted)
        #expect(ran.value == 0)
    }

    @Test func afterFailingWithFailsAtOnceOnCancellation() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        var endings = clock.endings.makeAsyncIterator()
        let future = Future<Void, Flaky>.after(.seconds(1), clock: clock, failingWith: .fatal(9))
        _ = await waits.next()
        future.requestCancellation()
        #expect(future.error == .fatal(9))
        #expect(await endings.next() == .cancelled)
        let untyped = Future<Void, any Error>.after(.seconds(1), clock: clock, failingWith: FuturesError.cancelled)
        untyped.requestCancellation()
        #expect(untyped.error as? FuturesError == .cancelled)
    }

    @Test func afterFailingWithSucceedsAtTheDeadline() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let future = Future<Void, Flaky>.after(.seconds(1), clock: clock, failingWith: .fatal(9))
        _ = await waits.next()
        await clock.advance(by: .seconds(1) + tick)
        #expect(await future.settledResult().failureIfAny == nil)
    }

    @Test func aCancelledAfterIsReleasedOnceItsTimerHasStopped() async {
        let clock = RecordingClock()
        let slot = WeakSlot<Future<Void, Never>>()
        let timer: ClockTimer
        do {
            let started = Future<Void, Never>.startTimer(.seconds(1), clock: clock, cancellationError: nil)
            slot.object = started.future
            timer = started.timer
            started.future.requestCancellation()
        }
        await timer.task?.value
        #expect(slot.isFreed)
    }

    @Test func aPendingAfterIsNotReleasedEarly() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let slot = WeakSlot<Future<Void, Never>>()
        do { slot.object = Future.after(.seconds(1), clock: clock) }
        _ = await waits.next()
        #expect(!slot.isFreed)  // the timer holds it until the deadline
        await clock.advance(by: .seconds(1) + tick)
    }

    @Test func cancellingADelayForANeverFutureStopsTheWaitAndItNeverCompletes() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        var endings = clock.endings.makeAsyncIterator()
        let delayed = Future<Int, Never>(value: 1).delay(for: .seconds(1), clock: clock)
        _ = await waits.next()
        delayed.requestCancellation()
        #expect(await endings.next() == .cancelled)
        await clock.advance(by: .seconds(5))
        #expect(!delayed.isCompleted)
    }

    @Test func aCancelledDelayStartsNoTimerWhenTheSourceCompletesLater() async {
        let clock = RecordingClock()
        let promise = Promise<Int, Never>()
        promise.onCancellationRequested {}  // a producer that reacts: requests are forwarded to it (G8)
        let delayed = promise.future.delay(for: .seconds(1), clock: clock)
        delayed.requestCancellation()
        #expect(promise.future.isCancellationRequested)
        promise.success(1)
        // The next wait the clock sees is this probe's: the cancelled delay asked for none.
        var waits = clock.waits.makeAsyncIterator()
        let probe = Future.after(.seconds(7), clock: clock)
        #expect(await waits.next() == .seconds(7))
        probe.requestCancellation()
        #expect(!delayed.isCompleted)
    }

    @Test func delayFailingWithFailsAtOnceOnCancellation() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        var endings = clock.endings.makeAsyncIterator()
        let delayed = Future<Int, Flaky>(value: 1).delay(for: .seconds(1), clock: clock, failingWith: .fatal(0))
        _ = await waits.next()
        delayed.requestCancellation()
        #expect(delayed.error == .fatal(0))
        #expect(await endings.next() == .cancelled)
    }

    @Test func delayOverAnAbandonedPendingSourceIsReleased() {
        let source = WeakSlot<Future<Int, Never>>()
        let delayed = WeakSlot<Future<Int, Never>>()
        let untypedDelayed = WeakSlot<Future<Int, any Error>>()
        do {
            let placeholder = Future<Int, Never>()
            source.object = placeholder
            delayed.object = placeholder.delay(for: .seconds(1), clock: RecordingClock())
            untypedDelayed.object = Future<Int, any Error>().delay(for: .seconds(1), clock: RecordingClock())
        }
        #expect(source.isFreed)
        #expect(delayed.isFreed)
        #expect(untypedDelayed.isFreed)
    }

    @Test func aHeldDelayOverAPendingSourceStillCompletes() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let promise = Promise<Int, Never>()
        let delayed = promise.future.delay(for: .seconds(1), clock: clock)
        let source = WeakSlot(promise.future)
        #expect(!source.isFreed)
        promise.success(8)
        _ = await waits.next()
        await clock.advance(by: .seconds(1) + tick)
        #expect(await delayed.settledResult() == .success(8))
    }
}

@Suite("retry: cancellation and memory", .hangGuard())
struct RetryCancellationTests {
    let tick = RecordingClock.tick

    @Test func cancellingDuringTheBackOffStartsNoFurtherAttempt() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        var endings = clock.endings.makeAsyncIterator()
        let calls = Counter()
        let retried = Future<Int, any Error>.retry(5, backoff: .constant(.seconds(1)), clock: clock) {
            Future(error: Flaky.transient(calls.increment()))
        }
        _ = await waits.next()
        retried.requestCancellation()
        #expect(retried.error as? FuturesError == .cancelled)
        #expect(await endings.next() == .cancelled)
        await clock.advance(by: .seconds(10))
        #expect(calls.value == 1)
    }

    @Test func failingWithGivesTheTypedCancellationError() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        var endings = clock.endings.makeAsyncIterator()
        let calls = Counter()
        let retried = Future<Int, Flaky>.retry(
            5, backoff: .constant(.seconds(1)), clock: clock, failingWith: .fatal(-7)
        ) {
            Future(error: .transient(calls.increment()))
        }
        _ = await waits.next()
        retried.requestCancellation()
        #expect(retried.error == .fatal(-7))
        #expect(await endings.next() == .cancelled)
        await clock.advance(by: .seconds(10))
        #expect(calls.value == 1)

        let backedOff = Future<Int, Flaky>.retry(
            5, backoff: .exponential(initial: .seconds(1)), clock: clock, failingWith: .fatal(-8)
        ) { Future(error: .transient(0)) }
        _ = await waits.next()
        backedOff.requestCancellation()
        #expect(backedOff.error == .fatal(-8))
    }

    @Test func failingWithDoesNotReplaceTheAttemptsOwnAnswerToARequest() {
        let attempt = Promise<Int, Flaky>()
        attempt.future.onCancellationRequested { attempt.failure(.transient(-1)) }
        let retried = Future<Int, Flaky>.retry(3, clock: RecordingClock(), failingWith: .fatal(0)) { attempt.future }
        retried.requestCancellation()
        #expect(retried.error == .transient(-1))
    }

    @Test func aRequestReachesATransformedAttemptInFlight() {
        let request = Promise<Int, Flaky>()
        let attempts = Recorder<Future<String, Flaky>>()
        let retried = Future<String, Flaky>.retry(3, clock: RecordingClock()) {
            let attempt = request.future.map(immediateExecutionContext) { "\($0)" }
            attempts.append(attempt)
            return attempt
        }
        retried.requestCancellation()
        #expect(attempts.values.count == 1)
        #expect(attempts.values[0].isCancellationRequested)
        request.success(1)
        #expect(retried.value == "1")
    }

    @Test func aRequestReachesTheStepOfARetriedDeferredChain() {
        let requested = Counter()
        let trunk = Deferred<Int, any Error>(starting: {
            let promise = Promise<Int, any Error>()
            promise.future.onCancellationRequested {
                requested.increment()
                promise.failure(FuturesError.cancelled)
            }
            return promise.future
        })
        let retried = trunk.map { $0 * 2 }.retry(3, clock: RecordingClock()).run()
        retried.requestCancellation()
        #expect(requested.value == 1)
        #expect(retried.error as? FuturesError == .cancelled)
    }

    @Test func aRequestWhileTheNextAttemptIsBeingCreatedCancelsThatAttempt() {
        let first = Promise<Int, any Error>()
        let retriedSlot = LockedBox<Future<Int, any Error>?>(nil)
        let attempts = Recorder<Future<Int, any Error>>()
        let retried = Future<Int, any Error>.retry(5, clock: RecordingClock()) {
            if attempts.values.isEmpty {
                attempts.append(first.future)
                return first.future
            }
            retriedSlot.value?.requestCancellation()  // a request while `operation` runs
            let attempt = Future<Int, any Error>()
            attempts.append(attempt)
            return attempt
        }
        retriedSlot.value = retried
        first.failure(Flaky.transient(1))  // zero back-off: the second attempt starts now
        #expect(attempts.values.count == 2)
        #expect(retried.error as? FuturesError == .cancelled)
        #expect(attempts.values[1].isCancellationRequested)
        retriedSlot.value = nil
    }

    @Test func withoutACancellationErrorTheAttemptBeingCreatedAnswersTheRequest() {
        let first = Promise<Int, Flaky>()
        let retriedSlot = LockedBox<Future<Int, Flaky>?>(nil)
        let calls = Counter()
        let retried = Future<Int, Flaky>.retry(5, clock: RecordingClock()) {
            if calls.increment() == 1 { return first.future }
            retriedSlot.value?.requestCancellation()
            let second = Promise<Int, Flaky>()
            second.future.onCancellationRequested { second.failure(.fatal(2)) }
            return second.future
        }
        retriedSlot.value = retried
        first.failure(.transient(1))
        #expect(retried.error == .fatal(2))
        #expect(calls.value == 2)
        retriedSlot.value = nil
    }

    @Test func anAbandonedAttemptReleasesTheWholeRetry() {
        let retried = WeakSlot<Future<Int, any Error>>()
        let typed = WeakSlot<Future<Int, Flaky>>()
        let attempt = WeakSlot<Future<Int, any Error>>()
        do {
            retried.object = Future<Int, any Error>.retry(3, clock: RecordingClock()) {
                let placeholder = Future<Int, any Error>()
                attempt.object = placeholder
                return placeholder
            }
            typed.object = Future<Int, Flaky>.retry(3, clock: RecordingClock()) { Future<Int, Flaky>() }
        }
        #expect(attempt.isFreed)
        #expect(retried.isFreed)
        #expect(typed.isFreed)
    }

    @Test func aHeldRetryIsKeptAliveByItsPendingAttempt() {
        let attempt = Promise<Int, Flaky>()
        let calls = Counter()
        let retried = Future<Int, Flaky>.retry(3, clock: RecordingClock()) {
            calls.increment() == 1 ? attempt.future : Future(value: 2)
        }
        attempt.failure(.transient(1))
        #expect(retried.value == 2)
        #expect(calls.value == 2)
    }

    @Test func aDroppedResultStillRetriesWhileItsAttemptIsAlive() {
        let attempt = Promise<Int, Flaky>()
        let finished = Promise<Int, Never>()
        let retried = WeakSlot<Future<Int, Flaky>>()
        do {
            let future = Future<Int, Flaky>.retry(3, clock: RecordingClock()) { attempt.future }
            future.onSuccess(immediateExecutionContext) { finished.success($0) }
            retried.object = future
        }
        #expect(!retried.isFreed)  // held through the attempt's callback
        attempt.success(5)
        #expect(finished.future.value == 5)
    }

    @Test func aRetryWaitingOnItsTimerIsKeptAliveByTheTimer() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let calls = Counter()
        let retried = Future<Int, Flaky>.retry(2, backoff: .constant(.seconds(1)), clock: clock) {
            calls.increment() == 1 ? Future(error: .transient(1)) : Future(value: 2)
        }
        _ = await waits.next()
        await clock.advance(by: .seconds(1) + tick)
        #expect(await retried.settledResult() == .success(2))
    }
}

@Suite("Deferred.retry: cancellation during a wait", .hangGuard())
struct DeferredRetryCancellationTests {
    @Test func failingWithGivesTheTypedErrorAndStopsRetrying() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let calls = Counter()
        let flaky = Deferred<Int, Flaky>(starting: { Future(error: .transient(calls.increment())) })
        let running = flaky.retry(4, backoff: .constant(.seconds(1)), clock: clock, failingWith: .fatal(-1)).run()
        _ = await waits.next()
        running.requestCancellation()
        #expect(running.error == .fatal(-1))
        await clock.advance(by: .seconds(5))
        #expect(calls.value == 1)
    }
}

/// A virtual clock whose time is moved synchronously, and whose sleep behaves as swift-clocks' `TestClock`:
/// a sleep that starts while `deadline >= now` waits for a move past it; a move wakes `deadline <= now`.
private final class JumpClock: Clock, Sendable {
    typealias Duration = Swift.Duration
    typealias Instant = TestClock<Swift.Duration>.Instant

    private struct State {
        var now = Instant()
        var sleepers: [(deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = LockedBox(State())

    var now: Instant { state.withValue { $0.now } }
    var minimumResolution: Duration { .zero }
    func jump(by duration: Duration) {
        let due = state.withValue { state -> [CheckedContinuation<Void, Never>] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.map(\.continuation)
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for continuation in due { continuation.resume() }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        await withCheckedContinuation { continuation in
            let past = state.withValue { state -> Bool in
                guard deadline >= state.now else { return true }
                state.sleepers.append((deadline, continuation))
                return false
            }
            if past { continuation.resume() }
        }
    }
}
