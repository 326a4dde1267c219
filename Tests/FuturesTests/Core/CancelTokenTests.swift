import Dispatch
import Testing

@testable import Futures

/// An object whose deallocation a test can observe through a weak reference.
final class Tracked: Sendable {}

@Suite("CancelToken: unregistering callbacks on futures and streams")
struct CancelTokenTests {
    @Test func aCancelledCallbackNeverRunsAndCancelReportsIt() {
        let promise = Promise<Int, any Error>()
        let token = CancelToken()
        let seen = Recorder<String>()
        promise.future.onSuccess(context: immediate, cancelToken: token) { seen.append("success \($0)") }
        promise.future.onFailure(context: immediate, cancelToken: token) { _ in seen.append("failure") }
        promise.future.onComplete(context: immediate, cancelToken: token) { _ in seen.append("complete") }
        promise.future.onSuccess(context: immediate) { seen.append("other \($0)") }
        #expect(promise.future.cancel(token))
        #expect(!promise.future.cancel(token))
        promise.success(1)
        #expect(seen.values == ["other 1"])
    }

    @Test func cancelAfterTheCallbackRanReturnsFalse() {
        let token = CancelToken()
        let ran = Counter()
        let future = Future<Int, any Error>(value: 1)
        future.onSuccess(context: immediate, cancelToken: token) { _ in ran.increment() }
        #expect(ran.value == 1)
        #expect(!future.cancel(token))
        #expect(!future.cancel(CancelToken()))
    }

    @Test func cancellingOnOneFutureLeavesTheSameTokenOnAnotherAlone() {
        let first = Promise<Int, any Error>()
        let second = Promise<Int, any Error>()
        let token = CancelToken()
        let seen = Recorder<Int>()
        first.future.onSuccess(context: immediate, cancelToken: token) { seen.append($0) }
        second.future.onSuccess(context: immediate, cancelToken: token) { seen.append($0) }
        #expect(first.future.cancel(token))
        first.success(1)
        second.success(2)
        #expect(seen.values == [2])
    }

    @Test func aCallbackAlreadyHandedToAQueueIsStillStoppedAndItsCaptureReleased() {
        let queue = DispatchQueue(label: "cancel.blocked")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }  // keep the queue busy until the callback is cancelled
        let promise = Promise<Int, any Error>()
        let token = CancelToken()
        let ran = Counter()
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            promise.future.onSuccess(context: ExecutionContext(queue: queue), cancelToken: token) { _ in
                _ = tracked
                ran.increment()
            }
        }
        promise.success(1)  // the callback is now queued behind the blocked block
        #expect(promise.future.cancel(token))
        #expect(weakTracked == nil)
        gate.signal()
        queue.sync {}
        #expect(ran.value == 0)
    }

    @Test func cancellingACombinatorFailsItsFutureAndQuietsTheChain() {
        let promise = Promise<Int, any Error>()
        let token = CancelToken()
        let seen = Recorder<String>()
        let mapped = promise.future.flatMap(context: immediate, cancelToken: token) { value in
            Future<String, any Error>(value: "\(value)")
        }
        mapped.onSuccess(context: immediate, cancelToken: token) { seen.append("token success \($0)") }
        mapped.onFailure(context: immediate, cancelToken: token) { _ in seen.append("token failure") }
        mapped.onFailure(context: immediate) { seen.append("other \($0)") }
        #expect(promise.future.cancel(token))
        promise.success(1)
        #expect(mapped.error as? FuturesError == .cancelled)
        #expect(seen.values == ["other cancelled"])
    }

    @Test func everyCombinatorTakesACancelToken() {
        let promise = Promise<Int, any Error>()
        let token = CancelToken()
        let ran = Counter()
        let derived: [Future<Int, any Error>] = [
            promise.future.map(context: immediate, cancelToken: token) { ran.increment(by: $0) },
            promise.future.flatMap(context: immediate, cancelToken: token) { Future(value: ran.increment(by: $0)) },
            promise.future.withFilter(context: immediate, cancelToken: token) { _ in ran.increment() > 0 },
            promise.future.andThen(context: immediate, cancelToken: token) { _ in ran.increment() },
            promise.future.recover(context: immediate, cancelToken: token) { _ in ran.increment() },
            promise.future.recoverWith(context: immediate, cancelToken: token) { _ in Future(value: ran.increment()) },
            promise.future.mapError(context: immediate, cancelToken: token) { error in
                ran.increment()
                return error
            },
        ]
        promise.future.forEach(context: immediate, cancelToken: token) { _ in ran.increment() }
        let streams: [FutureStream<Int>] = [
            promise.future.flatMap(context: immediate, cancelToken: token) { _ -> FutureStream<Int> in
                ran.increment()
                return FutureStream(value: 1)
            },
            promise.future.recoverWith(context: immediate, cancelToken: token) { _ -> FutureStream<Int> in
                ran.increment()
                return FutureStream(value: 1)
            },
        ]
        #expect(promise.future.cancel(token))
        promise.success(1)
        #expect(ran.value == 0)
        #expect(derived.allSatisfy { $0.error as? FuturesError == .cancelled })
        #expect(streams.allSatisfy { $0.isFinished && $0.count == 0 })
    }

    @Test func streamCallbacksAndCombinatorsAreCancelledByToken() {
        let promise = StreamPromise<Int>()
        let token = CancelToken()
        let seen = Recorder<String>()
        promise.stream.onSuccess(context: immediate, cancelToken: token) { seen.append("token \($0)") }
        let mapped = promise.stream.map(context: immediate, cancelToken: token) { $0 * 10 }
        mapped.onSuccess(context: immediate, cancelToken: token) { seen.append("mapped \($0)") }
        mapped.onFinish(context: immediate) { _ in seen.append("mapped finished") }
        promise.stream.onSuccess(context: immediate) { seen.append("other \($0)") }
        promise.success(1)
        #expect(promise.stream.cancel(token))
        #expect(!promise.stream.cancel(token))
        promise.success(2)
        #expect(seen.values == ["token 1", "mapped 10", "other 1", "mapped finished", "other 2"])
        #expect(mapped.isFinished)
    }

    @Test func aLongLivedTokenForgetsRegistrationsThatRanOrWhoseOwnerIsGone() {
        let token = CancelToken()
        let ran = Counter()
        for value in 0..<10_000 {
            Future<Int, any Error>(value: value).onSuccess(context: immediate, cancelToken: token) { _ in
                ran.increment()
            }
            _ = Future<Int, any Error>().map(context: immediate, cancelToken: token) { $0 }  // dropped while pending
        }
        #expect(ran.value == 10_000)
        #expect(token.registrationCountForTesting < 64)
    }

    @Test func concurrentCancelsAndCompletionsNeverRunACancelledCallback() async {
        let rounds = 1_000
        let strays = Counter()
        let done = Promise<Void, Never>()
        let finished = Counter()
        for worker in 0..<2 {
            DispatchQueue.global().async {
                for _ in 0..<(rounds / 2) {
                    let promise = Promise<Int, any Error>()
                    let token = CancelToken()
                    let cancelledFirst = Counter()
                    promise.future.onSuccess(context: immediate, cancelToken: token) { _ in
                        if cancelledFirst.value > 0 { strays.increment() }
                    }
                    let group = DispatchGroup()
                    DispatchQueue.global().async(group: group) {
                        if promise.future.cancel(token) { cancelledFirst.increment() }
                    }
                    promise.success(worker)
                    group.wait()
                }
                if finished.increment() == 2 { done.success(()) }
            }
        }
        await done.future.get()
        #expect(strays.value == 0)
    }

    /// G6: a combinator's cancel action lives in a registration the token holds, so it must not hold the
    /// token: a dropped token used by pending combinators is freed (LeakSanitizer found the cycle).
    @Test(arguments: ["future map", "future to stream", "stream map", "stream flatMap"])
    func aDroppedTokenUsedByPendingCombinatorsIsFreed(_ path: String) {
        weak var weakToken: CancelToken?
        let source = Future<Int, any Error>()
        let stream = StreamPromise<Int>()
        var derived: [AnyObject] = []
        do {
            let token = CancelToken()
            weakToken = token
            switch path {
            case "future map":
                derived.append(source.map(context: immediate, cancelToken: token) { $0 + 1 })
            case "future to stream":
                derived.append(
                    source.flatMap(context: immediate, cancelToken: token) { FutureStream(value: $0) })
            case "stream map":
                derived.append(stream.stream.map(context: immediate, cancelToken: token) { $0 + 1 })
            default:
                derived.append(
                    stream.stream.flatMap(context: immediate, cancelToken: token) { FutureStream(value: $0) })
            }
        }
        #expect(weakToken == nil, "the token was kept alive by its own registration (\(path))")
        #expect(derived.count == 1)
        source.complete(.success(1))
        stream.finish()
    }
}
