import BrightFutures
import Testing

/// `import BrightFutures` brings the core's `ConcurrencyLimiter` and `Future.retry`; with BrightFutures'
/// typed errors they keep the core's rules. Every future the limiter returns completes, whatever happens to
/// the limiter: a closed limiter fails a submission with the error it was given, and the items still queued
/// when it closes fail the same way. `retry` retries transient failures only: a refusal given as
/// `.invalidationTokenInvalidated` ends it at once. Each rule is checked with the work completed already and
/// still pending.
@Suite("BrightFutures: the limiter and retry")
struct LimiterAndRetryTests {
    private enum AppError: Error, Equatable {
        case timeout
    }

    private typealias Outcome = Future<Int, BrightFuturesError<AppError>>

    @Test func aClosedLimiterFailsASubmissionWithItsErrorWithoutRunningTheWork() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        limiter.close()
        let ran = Counter()
        let completedWork: Outcome = limiter.submit(failingWith: .invalidationTokenInvalidated) {
            ran.increment()
            return Future(value: 1)
        }
        let pendingWork: Outcome = limiter.submit(failingWith: .invalidationTokenInvalidated) {
            ran.increment()
            return Promise<Int, BrightFuturesError<AppError>>().future
        }
        #expect(completedWork.error == .invalidationTokenInvalidated)
        #expect(pendingWork.error == .invalidationTokenInvalidated)
        #expect(ran.value == 0)
    }

    @Test func itemsQueuedWhenTheLimiterClosesFailWithTheirError() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let running = Promise<Int, BrightFuturesError<AppError>>()
        let first: Outcome = limiter.submit(failingWith: .invalidationTokenInvalidated) { running.future }
        let queued: Outcome = limiter.submit(failingWith: .invalidationTokenInvalidated) { Future(value: 2) }
        #expect(!queued.isCompleted)
        limiter.close()
        #expect(queued.error == .invalidationTokenInvalidated)
        // The running item was asked to stop; its work decides how it ends.
        running.success(1)
        #expect(first.value == 1)
    }

    @Test func retryStopsAtTheFirstRefusalOfAClosedLimiter() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        limiter.close()
        let attempts = Counter()
        let result = Outcome.retry(5) {
            attempts.increment()
            return limiter.submit(failingWith: .invalidationTokenInvalidated) { Future(value: 1) }
        }
        #expect(result.error == .invalidationTokenInvalidated)
        #expect(attempts.value == 1)
    }

    @Test func retryStopsWhenThePendingAttemptIsRefusedAtClose() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let holder = Promise<Int, BrightFuturesError<AppError>>()
        let held: Outcome = limiter.submit(failingWith: .invalidationTokenInvalidated) { holder.future }
        let attempts = Counter()
        let result = Outcome.retry(5) {
            attempts.increment()
            return limiter.submit(failingWith: .invalidationTokenInvalidated) { Future(value: 1) }
        }
        #expect(!result.isCompleted && attempts.value == 1)
        limiter.close()
        #expect(result.error == .invalidationTokenInvalidated)
        #expect(attempts.value == 1)
        holder.success(0)
        #expect(held.value == 0)
    }

    @Test func retryRetriesATransientFailureUntilASuccess() {
        let attempts = Counter()
        let completed = Outcome.retry(5) {
            attempts.increment() < 3 ? Future(error: .external(.timeout)) : Future(value: 7)
        }
        #expect(completed.value == 7 && attempts.value == 3)

        let pendingAttempts = Recorder<Promise<Int, BrightFuturesError<AppError>>>()
        let pending = Outcome.retry(5) {
            let promise = Promise<Int, BrightFuturesError<AppError>>()
            pendingAttempts.append(promise)
            return promise.future
        }
        pendingAttempts.values[0].failure(.external(.timeout))
        pendingAttempts.values[1].failure(.external(.timeout))
        pendingAttempts.values[2].success(8)
        #expect(pending.value == 8 && pendingAttempts.values.count == 3)
    }
}
