import Testing

@testable import Futures

/// What `retry` tries again by default (`FuturesError.isTransient`): every failure but a cancellation or a
/// closed limiter's refusal; a `while:` of the caller's still decides otherwise.
@Suite("retry's default: transient failures only", .hangGuard())
struct FuturesErrorTransientTests {
    let tick = RecordingClock.tick

    /// How an attempt delivers its failure.
    enum Entry: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `operation` returns a future that has failed already.
        case alreadyFailed
        /// `operation` returns a pending future that fails later, from another call.
        case failsLater

        var testDescription: String { rawValue }
    }

    @Test func theClassificationOfEachError() {
        let stops: [any Error] = [
            FuturesError.cancelled,
            FuturesError.shutDown,
            CancellationError(),
            TimeoutError<FuturesError>.failure(.cancelled),
            TimeoutError<any Error>.failure(CancellationError()),
            CombinatorError<Flaky>.invalidationTokenInvalidated,
            CombinatorError<FuturesError>.external(.cancelled),
            TimeoutError<CombinatorError<FuturesError>>.failure(.external(.cancelled)),
        ]
        for error in stops { #expect(!FuturesError.isTransient(error), "\(error)") }
        let retries: [any Error] = [
            Flaky.transient(1),
            Flaky.fatal(1),
            FuturesError.timedOut,
            FuturesError.brokenPromise,
            FuturesError.noSuchElement,
            FuturesError.invalidValue,
            TimeoutError<Flaky>.timedOut,
            TimeoutError<FuturesError>.failure(.timedOut),
            CombinatorError<Flaky>.noSuchElement,
            CombinatorError<Flaky>.illegalState,
            CombinatorError<Flaky>.external(.fatal(2)),
        ]
        for error in retries { #expect(FuturesError.isTransient(error), "\(error)") }
    }

    /// A retry of `attempts` whose attempts fail, in turn, with `script`'s errors (delivered as `entry`
    /// says); returns its result and how many attempts started.
    private func retry<E: Error>(
        _ entry: Entry,
        failingWith script: [E],
        _ retry: (@escaping @Sendable () -> Future<Int, E>) -> Future<Int, E>
    ) -> (result: Result<Int, E>?, calls: Int) {
        let calls = Counter()
        let pending = LockedBox<[Promise<Int, E>]>([])
        let retried = retry {
            let error = script[min(calls.increment(), script.count) - 1]
            switch entry {
            case .alreadyFailed:
                return Future(error: error)
            case .failsLater:
                let promise = Promise<Int, E>()
                pending.withValue { $0.append(promise) }
                return promise.future
            }
        }
        if entry == .failsLater {
            // Each failure starts the next attempt on this thread (no back-off), which adds its promise.
            var failed = 0
            while let next = pending.withValue({ $0.isEmpty ? nil : $0.removeFirst() }) {
                next.failure(script[min(failed, script.count - 1)])
                failed += 1
            }
        }
        return (retried.result, calls.value)
    }

    @Test(arguments: Entry.allCases)
    func aCancellationFromTheWorkEndsTheRetryAtOnce(entry: Entry) {
        let untyped = retry(entry, failingWith: [Flaky.transient(1), FuturesError.cancelled, Flaky.transient(3)]) {
            Future<Int, any Error>.retry(5, clock: RecordingClock(), $0)
        }
        #expect(untyped.calls == 2)
        #expect((untyped.result?.error as? FuturesError) == .cancelled)

        let typed = retry(entry, failingWith: [FuturesError.timedOut, .cancelled, .timedOut]) {
            Future<Int, FuturesError>.retry(
                5, backoff: .immediate, clock: RecordingClock(), failingWith: .cancelled, $0)
        }
        #expect(typed.calls == 2)
        #expect(typed.result?.error == .cancelled)

        let task = retry(entry, failingWith: [Flaky.transient(1), CancellationError()]) {
            Future<Int, any Error>.retry(5, $0)
        }
        #expect(task.calls == 2)
        #expect(task.result?.error is CancellationError)

        let wrapped = retry(entry, failingWith: [TimeoutError<FuturesError>.timedOut, .failure(.cancelled)]) {
            Future<Int, TimeoutError<FuturesError>>.retry(5, backoff: .constant(.zero), $0)
        }
        #expect(wrapped.calls == 2)
        #expect(wrapped.result?.error == .failure(.cancelled))
    }

    @Test(arguments: Entry.allCases)
    func whileCanChooseToRetryACancellation(entry: Entry) {
        let retried = retry(entry, failingWith: [FuturesError.cancelled]) {
            Future<Int, any Error>.retry(4, while: { _ in true }, $0)
        }
        #expect(retried.calls == 4)
        #expect((retried.result?.error as? FuturesError) == .cancelled)

        let composed = retry(entry, failingWith: [Flaky.transient(1), Flaky.fatal(2)]) {
            Future<Int, any Error>.retry(4, while: { FuturesError.isTransient($0) && !($0 is Flaky) }, $0)
        }
        #expect(composed.calls == 1)
    }

    @Test(arguments: Entry.allCases)
    func typedFailuresOfYourOwnAreAllRetried(entry: Entry) {
        let retried = retry(entry, failingWith: [Flaky.fatal(1)]) { Future<Int, Flaky>.retry(3, $0) }
        #expect(retried.calls == 3)
        #expect(retried.result?.error == .fatal(1))
    }

    @Test("A requested cancellation stops the retry whatever while: says")
    func aRequestStopsEvenWhenWhileRetriesEverything() {
        let attempt = Promise<Int, any Error>()
        attempt.future.onCancellationRequested { attempt.failure(FuturesError.cancelled) }
        let calls = Counter()
        let retried = Future<Int, any Error>.retry(5, clock: RecordingClock(), while: { _ in true }) {
            calls.increment()
            return attempt.future
        }
        retried.requestCancellation()
        #expect((retried.error as? FuturesError) == .cancelled)
        #expect(calls.value == 1)
    }

    @Test("A limiter closed before the retry refuses its first attempt, and the retry ends there")
    func aClosedLimitersRefusalEndsTheRetry() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 2)
        limiter.close()
        let calls = Counter()
        let ran = Counter()
        let retried = Future<Int, any Error>.retry(5, backoff: .constant(.seconds(1)), clock: RecordingClock()) {
            calls.increment()
            return limiter.submit {
                ran.increment()
                return Future<Int, any Error>(value: 1)
            }
        }
        #expect((retried.error as? FuturesError) == .cancelled)
        #expect(calls.value == 1)
        #expect(ran.value == 0)
    }

    @Test("A limiter that closes during the back-off refuses the next attempt, and the retry ends there")
    func aLimiterClosedDuringTheBackOff() async {
        let clock = RecordingClock()
        var waits = clock.waits.makeAsyncIterator()
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let calls = Counter()
        let ran = Counter()
        let retried = Future<Int, any Error>.retry(5, backoff: .constant(.seconds(1)), clock: clock) {
            calls.increment()
            return limiter.submit {
                ran.increment()
                return Future<Int, any Error>(error: Flaky.transient(1))
            }
        }
        #expect(await waits.next() == .seconds(1))
        limiter.close()
        await clock.advance(by: .seconds(1) + tick)
        #expect((await retried.settledResult().error as? FuturesError) == .cancelled)
        #expect(calls.value == 2)
        #expect(ran.value == 1)
    }

    @Test("A queued attempt that the limiter's close drops ends the retry")
    func aQueuedAttemptDroppedByTheClose() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = Promise<Int, any Error>()
        _ = limiter.submit { blocker.future }
        let calls = Counter()
        let retried = Future<Int, any Error>.retry(5, clock: RecordingClock()) {
            calls.increment()
            return limiter.submit { Future<Int, any Error>(value: 1) }
        }
        #expect(!retried.isCompleted)  // queued behind the blocker
        limiter.close()
        #expect((retried.error as? FuturesError) == .cancelled)
        #expect(calls.value == 1)
        blocker.success(0)
    }

    @Test("Deferred's retry has the same default", arguments: Entry.allCases)
    func deferredRetry(entry: Entry) {
        let script: [any Error] = [Flaky.transient(1), FuturesError.cancelled, Flaky.transient(3)]
        let stopped = retry(entry, failingWith: script) { operation in
            Deferred<Int, any Error>(starting: operation).retry(5).run()
        }
        #expect(stopped.calls == 2)
        #expect((stopped.result?.error as? FuturesError) == .cancelled)

        let retriedAll = retry(entry, failingWith: [FuturesError.cancelled]) { operation in
            Deferred<Int, any Error>(starting: operation).retry(3, while: { _ in true }).run()
        }
        #expect(retriedAll.calls == 3)
    }
}
