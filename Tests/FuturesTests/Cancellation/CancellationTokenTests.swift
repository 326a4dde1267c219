import Clocks
import Dispatch
import Testing

@testable import Futures

/// How many entries (callbacks, wake-ups, handlers) a future's cell holds right now.
func storedEntryCount<T, E>(_ future: Future<T, E>) -> Int {
    future.lock.lock()
    defer { future.lock.unlock() }
    return future.state.pendingEntries.liveCount
}

/// How many handlers a ``CancellationSource``'s table holds right now.
func storedEntryCount(_ cell: CancellationHub) -> Int {
    cell.handlerCountForTesting
}

/// An object whose lifetime the tests watch through a weak reference.
final class Resource: Sendable {}

@Suite("Cancellation: tokens, sources, registrations")
struct CancellationTokenTests {
    @Test func aSourceRunsEachHandlerOnceOnTheCancellingThread() {
        let source = CancellationSource()
        let runs = Counter()
        source.token.onCancellationRequested { runs.increment() }
        source.token.onCancellationRequested { runs.increment(by: 10) }
        #expect(!source.isCancellationRequested && !source.token.isCancellationRequested)
        source.cancel()
        #expect(runs.value == 11)
        #expect(source.isCancellationRequested && source.token.isCancellationRequested)
        source.cancel()
        #expect(runs.value == 11, "a second cancel runs nothing")
    }

    @Test func registeringOnACancelledTokenRunsTheHandlerAtOnce() {
        let source = CancellationSource()
        source.cancel()
        let runs = Counter()
        let registration = source.token.onCancellationRequested { runs.increment() }
        #expect(runs.value == 1)
        #expect(!registration.isActive)
    }

    @Test func aDisposedRegistrationNeverRunsAndIsReleasedAtOnce() {
        let source = CancellationSource()
        let runs = Counter()
        weak var weakResource: Resource?
        let registration: CancellationRegistration
        do {
            let resource = Resource()
            weakResource = resource
            registration = source.token.onCancellationRequested {
                _ = resource
                runs.increment()
            }
        }
        #expect(registration.isActive)
        #expect(storedEntryCount(source.cell) == 1)
        registration.dispose()
        registration.dispose()
        #expect(!registration.isActive)
        #expect(weakResource == nil, "disposing releases what the handler captured")
        #expect(storedEntryCount(source.cell) == 0, "the token keeps nothing for a disposed registration")
        source.cancel()
        #expect(runs.value == 0)
    }

    @Test func disposingAfterCancellationIsHarmless() {
        let source = CancellationSource()
        let runs = Counter()
        let registration = source.token.onCancellationRequested { runs.increment() }
        source.cancel()
        registration.dispose()
        #expect(runs.value == 1)
    }

    @Test func theNeverTokenIsNeverCancelledAndStoresNothing() {
        let runs = Counter()
        let registration = CancellationToken.never.onCancellationRequested { runs.increment() }
        #expect(!CancellationToken.never.isCancellationRequested)
        #expect(!registration.isActive)
        registration.dispose()
        #expect(runs.value == 0)
    }

    @Test func aDisposedSourceReleasesItsHandlersAndIgnoresCancel() {
        let source = CancellationSource()
        let runs = Counter()
        weak var weakResource: Resource?
        do {
            let resource = Resource()
            weakResource = resource
            source.token.onCancellationRequested {
                _ = resource
                runs.increment()
            }
        }
        #expect(weakResource != nil)
        source.dispose()
        #expect(weakResource == nil)
        source.cancel()
        #expect(runs.value == 0 && !source.isCancellationRequested)
    }

    @Test func aDeallocatedSourceReleasesTheHandlersOfItsTokens() {
        weak var weakResource: Resource?
        var token: CancellationToken?
        do {
            let source = CancellationSource()
            let resource = Resource()
            weakResource = resource
            source.token.onCancellationRequested { _ = resource }
            token = source.token
        }
        #expect(weakResource == nil, "nobody can cancel any more, so the handler is dropped")
        #expect(token?.isCancellationRequested == false)
    }

    @Test func cancelAfterADurationOnAClock() async {
        let clock = TestClock()
        let source = CancellationSource()
        let fired = Promise<Void, Never>()
        source.token.onCancellationRequested { fired.success(()) }
        source.cancel(after: .seconds(5), clock: clock)
        await clock.advance(by: .seconds(4))
        #expect(!source.isCancellationRequested, "the deadline has not been reached")
        await clock.advance(by: .seconds(1))
        await fired.future.get()
        #expect(source.isCancellationRequested)
    }

    @Test func cancelAfterZeroCancelsAtOnceAndALaterCallReplacesAnEarlierOne() async {
        let atOnce = CancellationSource()
        atOnce.cancel(after: .zero, clock: TestClock())
        #expect(atOnce.isCancellationRequested)

        let clock = TestClock()
        let replaced = CancellationSource()
        let fired = Promise<Void, Never>()
        replaced.token.onCancellationRequested { fired.success(()) }
        replaced.cancel(after: .seconds(1), clock: clock)
        replaced.cancel(after: .seconds(10), clock: clock)
        await clock.advance(by: .seconds(9))
        #expect(!replaced.isCancellationRequested, "the first timer was replaced")
        await clock.advance(by: .seconds(1))
        await fired.future.get()
    }

    @Test func registrationDisposeAndCancelRaceSafely() {
        // Many threads register, dispose and cancel at once; run under TSan in CI.
        for _ in 0..<20 {
            let source = CancellationSource()
            let ranDisposed = Counter()
            let ranKept = Counter()
            let kept = Counter()
            DispatchQueue.concurrentPerform(iterations: 64) { index in
                if index == 32 {
                    source.cancel()
                    return
                }
                if index % 2 == 0 {
                    let registration = source.token.onCancellationRequested { ranDisposed.increment() }
                    registration.dispose()
                    registration.dispose()
                } else {
                    kept.increment()
                    source.token.onCancellationRequested { ranKept.increment() }
                }
            }
            #expect(ranKept.value == kept.value, "each kept handler ran exactly once")
            #expect(ranDisposed.value <= 32, "a disposed handler runs at most once (only if cancel won the race)")
            #expect(storedEntryCount(source.cell) == 0)
        }
    }
}

@Suite("Cancellation reaching producers: promises, wrapped callback APIs, links")
struct CancellationProducerTests {
    @Test func aPromiseObservesCancellationRequestsOfItsFuture() {
        let promise = Promise<Int, any Error>()
        let runs = Counter()
        promise.onCancellationRequested {
            runs.increment()
            promise.failure(FuturesError.cancelled)
        }
        #expect(!promise.isCancellationRequested)
        promise.future.requestCancellation()
        #expect(promise.isCancellationRequested && promise.cancellationToken.isCancellationRequested)
        #expect(runs.value == 1)
        #expect((promise.future.error as? FuturesError) == .cancelled)
        promise.future.requestCancellation()
        #expect(runs.value == 1, "a completed future ignores further requests")
    }

    @Test func registeringOnACompletedPromisesTokenStoresAndKeepsNothing() {
        let promise = Promise<Int, Never>()
        promise.success(1)
        weak var weakResource: Resource?
        let registration: CancellationRegistration
        do {
            let resource = Resource()
            weakResource = resource
            registration = promise.cancellationToken.onCancellationRequested { _ = resource }
        }
        #expect(!registration.isActive)
        #expect(weakResource == nil)
    }

    @Test func aRequestAfterCompletionReachesNobody() {
        let promise = Promise<Int, Never>()
        let runs = Counter()
        promise.onCancellationRequested { runs.increment() }
        promise.success(1)
        promise.future.requestCancellation()
        #expect(runs.value == 0 && !promise.isCancellationRequested)
    }

    @Test func aWrappedCallbackAPIGetsItsCancelHookCalledExactlyOnce() {
        let hookCalls = Counter()
        let pendingCompletion = LockedBox<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
        let future = Future<Int, any Error>(cancellable: { complete in
            pendingCompletion.value = complete
            return { hookCalls.increment() }
        })
        let callbackRuns = Counter()
        future.onComplete(immediateExecutionContext) { _ in callbackRuns.increment() }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in future.requestCancellation() }
        #expect(hookCalls.value == 1)
        #expect((future.error as? FuturesError) == .cancelled)
        // The API reports its own outcome after being cancelled: ignored, not reported as misuse.
        let reports = Recorder<FuturesDiagnostic>()
        FuturesDiagnostics.withHandler({ reports.append($0) }) {
            pendingCompletion.value?(.success(5))
        }
        #expect(reports.values.isEmpty)
        #expect(future.value == nil && callbackRuns.value == 1, "completed once, callbacks ran once")
    }

    /// An API whose cancel reports its own error at once (here on the cancelling thread, inside the hook;
    /// URLSession does it from another thread, which made the outcome a race): the request's outcome wins.
    @Test func anAPIReportingItsOwnOutcomeFromTheHookDoesNotReplaceCancelled() {
        let pendingCompletion = LockedBox<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
        let future = Future<Int, any Error>(cancellable: { complete in
            pendingCompletion.value = complete
            return { pendingCompletion.value?(.failure(ComboError.first)) }
        })
        future.requestCancellation()
        #expect((future.error as? FuturesError) == .cancelled)
    }

    @Test func aWrappedCallbackAPIWithATypedErrorWaitsForItsOwnOutcomeAfterTheHook() {
        enum DownloadError: Error { case cancelledByServer }
        let pendingCompletion = LockedBox<(@Sendable (Result<Int, DownloadError>) -> Void)?>(nil)
        let future = Future<Int, DownloadError>(cancellable: { complete in
            pendingCompletion.value = complete
            return { pendingCompletion.value?(.failure(.cancelledByServer)) }
        })
        future.requestCancellation()
        #expect(future.error == .cancelledByServer)
    }

    @Test func theCancelHookIsReleasedWithoutRunningWhenTheWorkCompletes() {
        weak var weakResource: Resource?
        let hookCalls = Counter()
        let future: Future<Int, any Error>
        do {
            let resource = Resource()
            weakResource = resource
            future = Future(cancellable: { complete in
                complete(.success(1))
                return {
                    _ = resource
                    hookCalls.increment()
                }
            })
        }
        #expect(weakResource == nil)
        future.requestCancellation()
        #expect(hookCalls.value == 0 && future.value == 1)
    }

    @Test func theCancelHookAndWhatItHeldAreReleasedAfterCancellation() {
        weak var weakResource: Resource?
        let future: Future<Int, any Error>
        do {
            let resource = Resource()
            weakResource = resource
            future = Future(cancellable: { _ in { _ = resource } })
        }
        #expect(weakResource != nil)
        future.requestCancellation()
        #expect(weakResource == nil)
        #expect(storedEntryCount(future) == 0)
    }

    @Test func completingAWrappedAPITwiceWithoutCancellationIsReported() {
        let reports = Recorder<FuturesDiagnostic>()
        let future = FuturesDiagnostics.withHandler({ reports.append($0) }) {
            Future<Int, Never>(cancellable: { complete in
                complete(.success(1))
                complete(.success(2))
                return {}
            })
        }
        #expect(future.value == 1)
        #expect(reports.values.count == 1)
    }

    @Test func completionCancellationAndRegistrationRaceSafely() {
        // Under TSan in CI: completing, requesting cancellation and registering at once, from many threads.
        for _ in 0..<50 {
            let promise = Promise<Int, any Error>()
            let handlerRuns = Counter()
            let callbackRuns = Counter()
            promise.future.onComplete(immediateExecutionContext) { _ in callbackRuns.increment() }
            DispatchQueue.concurrentPerform(iterations: 12) { index in
                switch index % 4 {
                case 0: promise.tryFailure(FuturesError.cancelled)
                case 1: promise.future.requestCancellation()
                case 2: promise.trySuccess(index)
                default:
                    let registration = promise.onCancellationRequested { handlerRuns.increment() }
                    if index % 8 == 3 { registration.dispose() }
                }
            }
            #expect(callbackRuns.value == 1, "completed once, the callback ran once")
            #expect(handlerRuns.value <= 3)
            #expect(storedEntryCount(promise.future) == 0)
        }
    }

    @Test func aTokenRequestsCancellationOfALinkedFuture() {
        let source = CancellationSource()
        let promise = Promise<Int, any Error>()
        promise.onCancellationRequested { promise.failure(FuturesError.cancelled) }
        promise.future.requestCancellation(when: source.token)
        #expect(storedEntryCount(source.cell) == 1)
        source.cancel()
        #expect((promise.future.error as? FuturesError) == .cancelled)
    }

    @Test func aLinkIsRemovedFromTheTokenWhenTheFutureCompletes() {
        let source = CancellationSource()
        let promise = Promise<Int, Never>()
        promise.future.requestCancellation(when: source.token)
        #expect(storedEntryCount(source.cell) == 1)
        promise.success(1)
        #expect(storedEntryCount(source.cell) == 0, "a long-lived token does not collect links")
        source.cancel()
        #expect(!promise.isCancellationRequested)
    }

    @Test func aTokenDoesNotKeepALinkedFutureAlive() {
        let source = CancellationSource()
        weak var weakFuture: Future<Int, Never>?
        do {
            let future = Future<Int, Never>()
            weakFuture = future
            future.requestCancellation(when: source.token)
        }
        #expect(weakFuture == nil)
        source.cancel()
    }
}
