import Dispatch
import Foundation
import Testing

@testable import Futures

/// Runs `body` on a plain thread and reports whether it returned within `seconds`.
///
/// The timeout only detects a failure (a thread spinning forever on a lock it re-entered); the
/// success path is synchronised by the semaphore the thread signals when `body` returns.
func returnsOnAThread(within seconds: Double = 20, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}

/// An object that runs `action` when it is deallocated.
final class OnDeinit: Sendable {
    let action: @Sendable () -> Void
    init(_ action: @escaping @Sendable () -> Void) { self.action = action }
    deinit { action() }
}

@Suite("Streams and tokens: nothing is released under a lock")
struct StreamLockDisciplineTests {
    /// The handler being removed holds the last `StreamPromise` of its own stream; releasing it
    /// finishes the stream, which takes the stream's lock again. Before the fix the handler was
    /// released inside the lock and the thread spun forever.
    @Test func releasingTheLastPromiseFromARemovedHandlerDoesNotDeadlock() {
        let returned = returnsOnAThread {
            let (stream, token) = makeStreamWhoseHandlerHoldsItsPromise()
            #expect(stream.cancel(token))
            #expect(stream.isFinished)
            #expect(stream.subscriberCountForTesting == 0)
        }
        #expect(returned)
    }

    /// A registration whose owner is gone holds a capture whose `deinit` uses the same token; the
    /// token's sweep releases it outside its lock.
    @Test func aSweptRegistrationMayUseItsTokenFromADeinit() {
        let returned = returnsOnAThread {
            let token = CancelToken()
            let reentered = Counter()
            do {
                let future = Future<Int, Never>()
                let capture = OnDeinit {
                    Future<Int, Never>().onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in }
                    reentered.increment()
                }
                future.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in _ = capture }
            }
            // The future is gone while its callback is still live: enough registrations trigger a sweep.
            for _ in 0..<64 {
                Future<Int, Never>().onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in }
            }
            #expect(reentered.value == 1)
        }
        #expect(returned)
    }

    /// A cancelled callback's capture whose `deinit` cancels the same token elsewhere.
    @Test func aCancelledCallbacksCaptureMayCancelAgainFromItsDeinit() {
        let returned = returnsOnAThread {
            let token = CancelToken()
            let other = Future<Int, Never>()
            other.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in }
            let future = Future<Int, Never>()
            let capture = OnDeinit { _ = other.cancel(token) }
            future.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in _ = capture }
            _ = consume capture
            #expect(future.cancel(token))
            #expect(!other.cancel(token), "the deinit already cancelled it")
        }
        #expect(returned)
    }

    /// An evicted result is released outside the lock: its `deinit` may publish to the stream.
    @Test func anEvictedResultMayPublishFromItsDeinit() {
        let returned = returnsOnAThread {
            let promise = StreamPromise<OnDeinit>(capacity: 1)
            let published = Counter()
            promise.success(
                OnDeinit { [promise] in
                    _ = promise.tryComplete(.failure(FuturesError.noSuchElement))
                    published.increment()
                })
            promise.success(OnDeinit {})
            #expect(published.value == 1)
        }
        #expect(returned)
    }

    /// A `for await` loop stopped by a failed result drops what it buffered; an event's `deinit` that
    /// publishes to the same stream reaches the consumer again. Before the fix the buffer was dropped
    /// under the consumer's lock and the thread spun forever.
    ///
    /// Async on purpose: a synchronous test blocking a cooperative thread while waiting for a `Task` can
    /// starve a 2-thread pool; a regression (the spin) fails through the time limit instead.
    @Test(.hangGuard())
    func stoppingALoopReleasesItsBufferOutsideItsLock() async {
        let promise = StreamPromise<OnDeinit>(capacity: 0)
        var iterator = promise.stream.makeAsyncIterator()
        promise.failure(FuturesError.noSuchElement)
        promise.success(OnDeinit { [promise] in promise.success(OnDeinit {}) })
        do {
            _ = try await iterator.next()
            Issue.record("the failed result should be thrown")
        } catch {}
    }

    /// A subscriber that joins while its replay is evicted by later results still gets the replay it
    /// was owed (the history at the time it subscribed), then every later result, in order.
    @Test func aReplayEvictedWhileOwedIsStillDeliveredInOrder() async {
        let promise = StreamPromise<Int>(capacity: 100)
        for value in 0..<100 { promise.success(value) }
        let queue = DispatchQueue(label: "replay")
        queue.suspend()
        let seen = Recorder<Int>()
        let done = Promise<Void, Never>()
        promise.stream.onSuccess(context: ExecutionContext(queue: queue)) { value in
            seen.append(value)
            if value == 349 { done.success(()) }
        }
        for value in 100..<350 { promise.success(value) }
        queue.resume()
        await done.future.get()
        #expect(seen.values == Array(0..<350))
        #expect(promise.stream.state.replaying == 0)
    }

    /// A long replay reaches an immediate subscriber in order (copied from the history in batches).
    @Test func aLongReplayIsDeliveredInOrder() {
        let promise = StreamPromise<Int>()
        for value in 0..<1_000 { promise.success(value) }
        let seen = Recorder<Int>()
        promise.stream.onSuccess(context: immediateExecutionContext) { seen.append($0) }
        promise.success(1_000)
        #expect(seen.values == Array(0...1_000))
    }

    /// Beyond 64 subscribers, drainers start from flags set under the lock (no array built there).
    @Test func moreThanSixtyFourSubscribersEachGetEveryValue() {
        let promise = StreamPromise<Int>(capacity: 0)
        let counts = (0..<100).map { _ in Counter() }
        for counter in counts {
            promise.stream.onSuccess(context: immediateExecutionContext) { _ in counter.increment() }
        }
        for value in 0..<10 { promise.success(value) }
        #expect(counts.allSatisfy { $0.value == 10 })
    }
}

private func makeStreamWhoseHandlerHoldsItsPromise() -> (FutureStream<Int>, CancelToken) {
    let promise = StreamPromise<Int>(capacity: 1)
    let token = CancelToken()
    promise.stream.onSuccess(context: immediateExecutionContext, cancelToken: token) { [promise] _ in
        _ = promise
    }
    return (promise.stream, token)
}
