import Clocks
import Testing

@testable import Futures

enum Flaky: Error, Equatable {
    case transient(Int)
    case fatal(Int)
}

@Suite("Time on virtual clocks: after, delay, timeout", .hangGuard())
struct TimeTests {
    let tick = RecordingClock.tick

    @Test func afterCompletesOnceItsDurationHasPassed() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let future = Future.after(.seconds(2), clock: clock)
        #expect(await waits.next() == .seconds(2))
        await clock.advance(by: .seconds(1))
        #expect(!future.isCompleted)
        await clock.advance(by: .seconds(1) + tick)
        await future.get()
        #expect(future.isSuccess)
    }

    @Test func delayStartsWhenTheFutureCompletes() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let promise = Promise<Int, Flaky>()
        let delayed = promise.future.delay(for: .seconds(3), clock: clock)
        await clock.advance(by: .seconds(10))
        #expect(!delayed.isCompleted)
        promise.success(5)
        #expect(await waits.next() == .seconds(3))
        await clock.advance(by: .seconds(2))
        #expect(!delayed.isCompleted)
        await clock.advance(by: .seconds(1) + tick)
        #expect(await delayed.settledResult() == .success(5))
    }

    @Test func delayDelaysFailuresAndIsAsynchronousEvenForZero() async {
        let clock = RecordingClock()
        let failed = Future<Int, Flaky>(error: .fatal(1)).delay(for: .zero, clock: clock)
        #expect(!failed.isCompleted)
        await clock.advance(by: tick)
        #expect(await failed.settledResult() == .failure(.fatal(1)))
    }

    @Test func cancellingADelayFailsAtOnceAndStopsTheWait() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        var endings = clock.endings.makeAsyncIterator()
        let delayed = Future<Int, any Error>(value: 1).delay(for: .seconds(5), clock: clock)
        _ = await waits.next()
        delayed.requestCancellation()
        #expect(delayed.error as? FuturesError == .cancelled)
        #expect(await endings.next() == .cancelled)
    }

    @Test func cancellingADelayIsPassedToThePendingSource() {
        let cancelled = Counter()
        let promise = Promise<Int, Never>()
        promise.future.onCancellationRequested { cancelled.increment() }
        let delayed = promise.future.delay(for: .seconds(1), clock: RecordingClock())
        delayed.requestCancellation()
        #expect(cancelled.value == 1)
        #expect(!delayed.isCompleted)  // `Never` cannot say "cancelled": the delayed future stays pending
        promise.success(1)
        #expect(!delayed.isCompleted)
    }

    @Test func timeoutPassesAResultThatArrivesInTimeAndStopsTheTimer() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        var endings = clock.endings.makeAsyncIterator()
        let promise = Promise<Int, Flaky>()
        let limited = promise.future.timeout(after: .seconds(5), clock: clock)
        #expect(await waits.next() == .seconds(5))
        await clock.advance(by: .seconds(4))
        promise.success(7)
        #expect(limited.value == 7)
        #expect(await endings.next() == .cancelled)
    }

    @Test func timeoutFailsAtTheDeadlineAndRequestsCancellationOfTheWork() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let cancelled = Counter()
        let promise = Promise<Int, Flaky>()
        promise.future.onCancellationRequested { cancelled.increment() }
        let limited = promise.future.timeout(after: .seconds(5), clock: clock)
        _ = await waits.next()
        await clock.advance(by: .seconds(4))
        #expect(!limited.isCompleted && cancelled.value == 0)
        await clock.advance(by: .seconds(1) + tick)
        #expect(await limited.settledResult() == .failure(.timedOut))
        #expect(cancelled.value == 1)
        promise.failure(.fatal(0))  // the late result is ignored
        #expect(limited.error == .timedOut)
    }

    @Test func timeoutKeepsTheFuturesOwnFailureDistinguishable() {
        let limited = Future<Int, Flaky>(error: .fatal(2)).timeout(after: .seconds(1), clock: RecordingClock())
        #expect(limited.error == .failure(.fatal(2)))
    }

    @Test func untypedTimeoutFailsWithFuturesErrorTimedOut() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let limited = Future<Int, any Error>().timeout(after: .milliseconds(300), clock: clock)
        #expect(type(of: limited) == Future<Int, any Error>.self)
        _ = await waits.next()
        await clock.advance(by: .milliseconds(300) + tick)
        let error = await limited.settledResult().failureIfAny
        #expect(error as? FuturesError == .timedOut)
    }

    @Test func timeoutFailingWithKeepsTheTypedError() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let limited = Future<Int, Flaky>().timeout(after: .seconds(1), clock: clock, failingWith: .transient(0))
        _ = await waits.next()
        await clock.advance(by: .seconds(1) + tick)
        #expect(await limited.settledResult() == .failure(.transient(0)))
    }

    @Test func timeoutPassesACancellationRequestToTheWork() {
        let cancelled = Counter()
        let promise = Promise<Int, Flaky>()
        promise.future.onCancellationRequested { cancelled.increment() }
        promise.future.timeout(after: .seconds(1), clock: RecordingClock()).requestCancellation()
        #expect(cancelled.value == 1)
        promise.success(1)
    }
}

extension Result {
    var failureIfAny: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
