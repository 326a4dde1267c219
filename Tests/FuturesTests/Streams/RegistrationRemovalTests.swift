import Dispatch
import Testing

@testable import Futures

/// A token whose gate is closed by hand, without the ``InvalidationToken`` class (no tracking):
/// a stream drainer must find the gate closed and remove the subscriber itself.
private final class FlagToken: InvalidationTokenType, @unchecked Sendable {
    // `@unchecked Sendable`: `flag` is an atomic counter.
    let flag = Counter()
    var isInvalid: Bool { flag.value != 0 }
    let future = Future<Never, CombinatorError<Never>>()
}

@Suite("Cancelled and invalidated registrations are removed at once")
struct RegistrationRemovalTests {
    // MARK: Futures and CancelToken

    @Test func cancellingACallbackRemovesItFromThePendingFutureAndReleasesItsCaptures() {
        let promise = Promise<Int, Never>()
        let token = CancelToken()
        weak var released: Resource?
        do {
            let resource = Resource()
            released = resource
            promise.future.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in _ = resource }
        }
        #expect(released != nil)
        #expect(storedEntryCount(promise.future) == 1)
        #expect(promise.future.cancel(token))
        #expect(released == nil, "the capture is released at cancel, not at completion")
        #expect(storedEntryCount(promise.future) == 0)
        promise.success(1)
    }

    @Test func manyRegisterCancelCyclesLeaveNothingOnALongLivedFuture() {
        let promise = Promise<Int, Never>()
        let token = CancelToken()
        for _ in 0..<100_000 {
            promise.future.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in }
            promise.future.cancel(token)
        }
        #expect(storedEntryCount(promise.future) == 0)
        #expect(token.registrationCountForTesting == 0)
        promise.success(1)
    }

    // MARK: Futures and InvalidationToken

    @Test func invalidatingReleasesEveryRegistrationMadeThroughTheToken() {
        let promise = Promise<Int, Never>()
        let ran = Counter()
        for _ in 0..<10_000 {
            let token = InvalidationToken()
            let resource = Resource()
            promise.future.onSuccess(context: token.validContext(immediateExecutionContext)) { _ in
                _ = resource
                ran.increment()
            }
            #expect(token.registrationCountForTesting == 1)
            token.invalidate()
            #expect(token.registrationCountForTesting == 0)
        }
        #expect(storedEntryCount(promise.future) == 0, "the future keeps nothing of invalidated callbacks")
        promise.success(1)
        #expect(ran.value == 0)
    }

    /// The BrightFutures form registers through the core's `whenComplete`; it is tracked once
    /// `Future.whenCompleteGated` (Core/Future.swift) first calls `whenCompleteGatedTracked`.
    @Test
    func invalidatingReleasesABrightFuturesCallback() {
        let promise = Promise<Int, Never>()
        let token = InvalidationToken()
        weak var released: Resource?
        do {
            let resource = Resource()
            released = resource
            promise.future.onSuccess(token.validContext(immediateExecutionContext)) { _ in _ = resource }
        }
        token.invalidate()
        #expect(released == nil)
        #expect(storedEntryCount(promise.future) == 0)
    }

    @Test func invalidatingReleasesTheCapturesAtOnce() {
        let promise = Promise<Int, Never>()
        let token = InvalidationToken()
        weak var released: Resource?
        do {
            let resource = Resource()
            released = resource
            #expect(
                promise.future.whenCompleteGatedTracked(token.validContext(immediateExecutionContext)) { _ in
                    _ = resource
                } != nil)
        }
        #expect(released != nil)
        token.invalidate()
        #expect(released == nil)
        #expect(storedEntryCount(promise.future) == 0)
    }

    @Test func aRegistrationThatRanIsForgottenByItsToken() {
        let promise = Promise<Int, Never>()
        let token = InvalidationToken()
        let ran = Counter()
        promise.future.onSuccess(context: token.validContext(immediateExecutionContext)) { _ in ran.increment() }
        #expect(token.registrationCountForTesting == 1)
        promise.success(1)
        #expect(ran.value == 1)
        #expect(token.registrationCountForTesting == 0)
    }

    @Test func registeringThroughAnInvalidTokenStoresNothing() {
        let promise = Promise<Int, Never>()
        let token = InvalidationToken()
        token.invalidate()
        weak var released: Resource?
        do {
            let resource = Resource()
            released = resource
            promise.future.onSuccess(context: token.validContext(immediateExecutionContext)) { _ in _ = resource }
        }
        #expect(released == nil)
        #expect(storedEntryCount(promise.future) == 0)
    }

    @Test func aDroppedTokenThatWasInvalidatedStaysInvalid() {
        let promise = Promise<Int, Never>()
        let ran = Counter()
        do {
            let token = InvalidationToken()
            let context = token.validContext(immediateExecutionContext)
            token.invalidate()
            promise.future.onSuccess(context: context) { _ in ran.increment() }
        }
        promise.success(1)
        #expect(ran.value == 0)
    }

    // MARK: Streams and InvalidationToken

    @Test func invalidatingRemovesAndReleasesAStreamSubscriber() {
        let promise = StreamPromise<Int>(capacity: 1)
        let token = InvalidationToken()
        let seen = Recorder<Int>()
        weak var released: Resource?
        do {
            let resource = Resource()
            released = resource
            promise.stream.onSuccess(context: token.validContext(immediateExecutionContext)) { value in
                _ = resource
                seen.append(value)
            }
        }
        promise.success(1)
        #expect(promise.stream.subscriberCountForTesting == 1)
        token.invalidate()
        #expect(promise.stream.subscriberCountForTesting == 0)
        #expect(released == nil)
        for value in 2..<1_000 { promise.success(value) }
        #expect(seen.values == [1])
        #expect(promise.stream.subscriberCountForTesting == 0)
    }

    /// Before the fix, a subscriber on a closed gate was never drained: its mailbox grew with every
    /// value and `.end` never came. Now the drainer that finds the gate closed removes it.
    @Test func aSubscriberFoundBehindAClosedGateIsRemoved() {
        for context in [immediateExecutionContext, ExecutionContext(queue: DispatchQueue(label: "gate"))] {
            let promise = StreamPromise<Int>(capacity: 1)
            let token = FlagToken()
            let seen = Recorder<Int>()
            promise.stream.onSuccess(context: token.validContext(context)) { seen.append($0) }
            token.flag.increment()
            promise.success(1)
            let drained = Promise<Void, Never>()
            // A subscriber added after it on the same context runs after its drainer.
            promise.stream.onSuccess(context: context) { _ in drained.trySuccess(()) }
            _ = drained.future.forced()
            for value in 2..<100 { promise.success(value) }
            #expect(promise.stream.subscriberCountForTesting == 1)
            #expect(seen.values.isEmpty)
        }
    }

    // MARK: CancellationToken complexity

    @Test func disposingManyRegistrationsOfOneSourceIsLinear() {
        func work(_ count: Int) -> Int {
            let source = CancellationSource()
            let registrations = (0..<count).map { _ in source.token.onCancellationRequested {} }
            for registration in registrations { registration.dispose() }
            #expect(storedEntryCount(source.cell) == 0)
            return source.cell.visitsForTesting
        }
        let small = work(2_000)
        let large = work(20_000)
        #expect(large <= small * 12, "work \(small) at n, \(large) at 10n")
    }

    @Test func cancellingManyFuturesSharingATokenIsLinear() {
        func work(_ count: Int) -> Int {
            let token = CancelToken()
            let futures = (0..<count).map { _ in Future<Int, Never>() }
            for future in futures {
                future.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in }
            }
            for future in futures { #expect(future.cancel(token)) }
            #expect(token.registrationCountForTesting == 0)
            return token.visitsForTesting
        }
        // The token sweeps whenever its registrations doubled, so the sweep work depends on where n
        // falls between powers of two; n = 2^11 and 10n keep that effect out of the ratio.
        let small = work(2_048)
        let large = work(20_480)
        #expect(large <= small * 12, "work \(small) at n, \(large) at 10n")
    }
}
