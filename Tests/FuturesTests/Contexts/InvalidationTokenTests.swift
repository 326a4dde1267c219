import Dispatch
import Testing

@testable import Futures

@Suite("InvalidationToken: callbacks through it never run after invalidation")
struct InvalidationTokenTests {
    @Test func aFreshTokenIsValidAndItsFutureIsPending() {
        let token = InvalidationToken()
        #expect(!token.isInvalid)
        #expect(!token.future.isCompleted)
    }

    @Test func invalidateIsIdempotentAndFailsTheFutureOnce() {
        let token = InvalidationToken()
        let failures = Recorder<CombinatorError<Never>>()
        token.future.onFailure(immediateExecutionContext) { failures.append($0) }
        token.invalidate()
        token.invalidate()
        #expect(token.isInvalid)
        #expect(token.future.error == .invalidationTokenInvalidated)
        #expect(failures.values == [.invalidationTokenInvalidated])
    }

    @Test func aCallbackThroughAValidTokenRuns() {
        let token = InvalidationToken()
        let ran = Counter()
        Future<Int, Never>(value: 1).onSuccess(token.validContext(immediateExecutionContext)) { _ in ran.increment() }
        #expect(ran.value == 1)
    }

    @Test func aCallbackThroughAnInvalidatedTokenDoesNotRunButTheOnesBehindItDo() {
        let token = InvalidationToken()
        let ran = Recorder<String>()
        let promise = Promise<Int, Never>()
        promise.future.onSuccess(token.validContext(immediateExecutionContext)) { _ in ran.append("guarded") }
        promise.future.onSuccess(immediateExecutionContext) { _ in ran.append("behind") }
        token.invalidate()
        promise.success(1)
        #expect(ran.values == ["behind"])
    }

    @Test func theTokenIsCheckedWhenTheCallbackRunsNotWhenItIsRegistered() async {
        let token = InvalidationToken()
        let queue = DispatchQueue(label: "bf.token")
        let ran = Recorder<String>()
        let done = Promise<Void, Never>()
        let future = Future<Int, Never>(value: 1)
        queue.suspend()
        future.onSuccess(token.validContext(queue.context)) { _ in ran.append("guarded") }
        future.onSuccess(queue.context) { _ in done.success(()) }
        token.invalidate()  // after registration and completion, before the queue runs the callback
        queue.resume()
        await done.future.get()
        #expect(ran.values.isEmpty)
    }

    @Test func validContextWithoutAParentUsesTheDefaultContext() {
        let token = InvalidationToken()
        let ran = Counter()
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            _ = Future<Int, Never>(value: 1).onSuccess(token.validContext) { _ in ran.increment() }
        }
        #expect(ran.value == 1)
        token.invalidate()
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            _ = Future<Int, Never>(value: 1).onSuccess(token.validContext) { _ in ran.increment() }
        }
        #expect(ran.value == 1)
    }

    @Test func validContextAcceptsACustomParent() {
        let token = InvalidationToken()
        let counting = CountingContext()
        let ran = Counter()
        let future = Future<Int, Never>(value: 1)
        future.onSuccess(token.validContext(ExecutionContext(counting.function))) { _ in ran.increment() }
        token.invalidate()
        future.onSuccess(token.validContext(ExecutionContext(counting.function))) { _ in ran.increment() }
        #expect(ran.value == 1)
        // Registering through an already invalid token stores nothing and hands the parent nothing: the
        // callback is released at once (GUARANTEES.md G6).
        #expect(counting.count.value == 1)
    }

    @Test func callingAValidContextDirectlyDropsTheTaskOnceInvalid() {
        let token = InvalidationToken()
        let ran = Counter()
        let context = token.validContext(immediateExecutionContext)
        context { ran.increment() }
        token.invalidate()
        context { ran.increment() }
        #expect(ran.value == 1)
    }

    @Test func nestedValidContextsRequireEveryTokenToBeValid() {
        let outer = InvalidationToken()
        let inner = InvalidationToken()
        let ran = Recorder<String>()
        let context = inner.validContext(outer.validContext(immediateExecutionContext))
        let future = Future<Int, Never>(value: 1)
        future.onSuccess(context) { _ in ran.append("both valid") }
        outer.invalidate()
        future.onSuccess(context) { _ in ran.append("outer invalid") }
        future.onSuccess(immediateExecutionContext) { _ in ran.append("behind") }
        #expect(ran.values == ["both valid", "behind"])
    }

    @Test func aTransformThroughAnInvalidatedTokenLeavesItsFuturePending() {
        let token = InvalidationToken()
        token.invalidate()
        let mapped = Future<Int, Never>(value: 1).map(token.validContext(immediateExecutionContext)) { $0 + 1 }
        #expect(!mapped.isCompleted)
    }

    @Test func invalidatingAfterTheCallbackRanChangesNothing() {
        let token = InvalidationToken()
        let ran = Counter()
        Future<Int, Never>(value: 1).onSuccess(token.validContext(immediateExecutionContext)) { _ in ran.increment() }
        token.invalidate()
        #expect(ran.value == 1)
    }

    @Test func manualTokensWorkThroughTheProtocols() {
        let token: any ManualInvalidationTokenType = InvalidationToken()
        let ran = Counter()
        let context = token.validContext(immediateExecutionContext)
        token.invalidate()
        Future<Int, Never>(value: 1).onSuccess(context) { _ in ran.increment() }
        #expect(token.isInvalid && ran.value == 0)
    }

    @Test func racingInvalidateAgainstCompletionRunsTheCallbackAtMostOnceAndNeverBlocksTheRest() async {
        let iterations = 2_000
        let guardedRuns = Counter()
        let skipped = Counter()
        for _ in 0..<iterations {
            let token = InvalidationToken()
            let promise = Promise<Int, Never>()
            let thisRun = Counter()
            let behind = Promise<Void, Never>()
            promise.future.onSuccess(token.validContext(DispatchQueue.global().context)) { _ in
                thisRun.increment()
            }
            promise.future.onSuccess(immediateExecutionContext) { _ in behind.success(()) }
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { promise.success(1) } else { token.invalidate() }
            }
            await behind.future.get()  // the callback behind the guarded one always gets its turn
            #expect(thisRun.value <= 1)
            #expect(token.isInvalid && token.future.error == .invalidationTokenInvalidated)
            if thisRun.value == 0 { skipped.increment() } else { guardedRuns.increment() }
        }
        #expect(guardedRuns.value + skipped.value == iterations)
    }

    @Test func aCallbackRegisteredAfterInvalidationNeverRunsEvenUnderContention() async {
        let token = InvalidationToken()
        token.invalidate()
        let ran = Counter()
        let promise = Promise<Int, Never>()
        let context = token.validContext(DispatchQueue.global().context)
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            if index == 50 { promise.success(1) }
            promise.future.onSuccess(context) { _ in ran.increment() }
        }
        let last = Promise<Void, Never>()
        promise.future.onSuccess(DispatchQueue.global().context) { _ in last.success(()) }
        await last.future.get()  // callbacks run in order, so every guarded one has had its turn
        #expect(ran.value == 0)
    }
}
