import Futures
import SimpleFutures
import Synchronization
import Testing

// The face's guarantees (the core's, kept through the face): closures released once they ran or were
// cancelled, bounded stack at any depth, cancellation through a `CancelToken`, stream capacity, and
// the defined outcome of each misuse.

@Suite("SimpleFutures: closures are released")
struct ReleaseTests {
    @Test func combinatorClosureOfAPendingFutureIsReleasedAfterItRan() {
        let source = SimpleFutures.Future<Int>()
        weak var watched: Tracked?
        let mapped: SimpleFutures.Future<Int> = {
            let tracked = Tracked()
            watched = tracked
            return source.map(context: ImmediateContext()) { value in
                withExtendedLifetime(tracked) { value + 1 }
            }
        }()
        #expect(watched != nil)
        source.success(1)
        #expect(watched == nil)
        #expect(mapped.result?.value == 2)
    }

    @Test func callbackOnACompletedFutureIsReleasedAfterItRan() {
        let source = SimpleFutures.Future(value: 1)
        weak var watched: Tracked?
        let ran = Counter()
        do {
            let tracked = Tracked()
            watched = tracked
            source.onSuccess(context: ImmediateContext()) { _ in withExtendedLifetime(tracked) { ran.increment() } }
        }
        #expect(ran.value == 1)
        #expect(watched == nil)
    }

    @Test func cancelledClosureIsReleasedAtOnce() {
        let source = SimpleFutures.Future<Int>()
        let token = CancelToken()
        weak var watched: Tracked?
        do {
            let tracked = Tracked()
            watched = tracked
            _ = source.map(context: ImmediateContext(), cancelToken: token) { value in
                withExtendedLifetime(tracked) { value }
            }
        }
        #expect(watched != nil)
        #expect(source.cancel(token))
        #expect(watched == nil)
    }

    @Test func streamCallbackIsReleasedWhenCancelled() {
        let stream = SimpleFutures.FutureStream<Int>()
        let token = CancelToken()
        weak var watched: Tracked?
        do {
            let tracked = Tracked()
            watched = tracked
            stream.onSuccess(context: ImmediateContext(), cancelToken: token) { _ in withExtendedLifetime(tracked) {} }
        }
        stream.success(1)
        #expect(watched != nil)
        #expect(stream.cancel(token))
        #expect(watched == nil)
    }
}

@Suite("SimpleFutures: bounded stack", .hangGuard())
struct DepthTests {
    @Test(arguments: StackKind.allCases)
    func mapChainOnAPendingFuture(on stack: StackKind) async {
        let depth = testDepth
        let last = await stack.run { () -> Int? in
            let source = SimpleFutures.Future<Int>()
            var future = source
            for _ in 0..<depth { future = future.map(context: ImmediateContext()) { $0 + 1 } }
            source.success(0)
            return future.result?.value
        }
        #expect(last == depth)
    }

    @Test(arguments: StackKind.allCases)
    func mapChainOnACompletedFuture(on stack: StackKind) async {
        let depth = testDepth
        let last = await stack.run { () -> Int? in
            var future = SimpleFutures.Future(value: 0)
            for _ in 0..<depth { future = future.map(context: ImmediateContext()) { $0 + 1 } }
            return future.result?.value
        }
        #expect(last == depth)
    }

    @Test func flatMapChainOnAPendingFuture() async {
        let depth = testDepth
        let last = await StackKind.plainThread.run { () -> Int? in
            let source = SimpleFutures.Future<Int>()
            var future = source
            for _ in 0..<depth {
                future = future.flatMap(context: ImmediateContext()) { value -> SimpleFutures.Future<Int> in
                    SimpleFutures.Future(value: value + 1)
                }
            }
            source.success(0)
            return future.result?.value
        }
        #expect(last == depth)
    }
}

@Suite("SimpleFutures: CancelToken")
struct CancelTokenTests {
    @Test func cancelledCombinatorLeavesItsFuturePending() {
        let source = SimpleFutures.Future<Int>()
        let token = CancelToken()
        let mapped = source.map(context: ImmediateContext(), cancelToken: token) { $0 + 1 }
        let recovered = source.recover(context: ImmediateContext(), cancelToken: token) { _ in 0 }
        #expect(source.cancel(token))
        source.success(1)
        #expect(!mapped.completed)
        #expect(!recovered.completed)
    }

    @Test func cancelReportsWhetherSomethingWasWaiting() {
        let future = SimpleFutures.Future<Int>()
        let token = CancelToken()
        #expect(!future.cancel(token))
        future.onSuccess(context: ImmediateContext(), cancelToken: token) { _ in Issue.record("cancelled callback ran")
        }
        #expect(future.cancel(token))
        #expect(!future.cancel(token))
        future.success(1)
    }

    @Test func oneTokenOnSeveralFuturesCancelsOnlyWhereItIsCancelled() {
        let first = SimpleFutures.Future<Int>()
        let second = SimpleFutures.Future<Int>()
        let token = CancelToken()
        let ran = Counter()
        first.onSuccess(context: ImmediateContext(), cancelToken: token) { _ in ran.increment() }
        second.onSuccess(context: ImmediateContext(), cancelToken: token) { _ in ran.increment() }
        first.cancel(token)
        first.success(1)
        second.success(1)
        #expect(ran.value == 1)
    }

    @Test func cancelledStreamCombinatorStopsDelivering() {
        let stream = SimpleFutures.FutureStream<Int>()
        let token = CancelToken()
        let mapped = stream.map(context: ImmediateContext(), cancelToken: token) { $0 * 2 }
        stream.success(1)
        #expect(stream.cancel(token))
        stream.success(2)
        #expect(mapped.count == 1)
    }
}

@Suite("SimpleFutures: stream capacity")
struct CapacityTests {
    @Test func streamKeepsItsLastCapacityResults() async {
        let promise = SimpleFutures.StreamPromise<Int>(capacity: 3)
        for value in 1...5 { promise.success(value) }
        #expect(promise.stream.count == 3)
        #expect(await results(of: promise.stream, count: 3).map(\.value) == [3, 4, 5])
    }

    @Test func derivedStreamHasItsSourcesCapacity() {
        let stream = SimpleFutures.FutureStream<Int>(capacity: 2)
        let mapped = stream.map(context: ImmediateContext()) { $0 + 1 }
        for value in 1...5 { stream.success(value) }
        #expect(mapped.count == 2)
    }

    @Test func futureToStreamTakesTheGivenCapacity() {
        let future = SimpleFutures.Future(value: 1)
        let inner = SimpleFutures.FutureStream<Int>()
        let stream = future.flatMap(capacity: 2, context: ImmediateContext()) { _ -> SimpleFutures.FutureStream<Int> in
            inner
        }
        for value in 1...4 { inner.success(value) }
        #expect(stream.count == 2)
    }
}

@Suite("SimpleFutures: misuse", .serialized)
struct MisuseTests {
    /// Runs `body` with a diagnostics handler and returns what it reported.
    func diagnostics(_ body: () -> Void) -> [FuturesDiagnostic] {
        let seen = Mutex<[FuturesDiagnostic]>([])
        FuturesDiagnostics.withHandler({ diagnostic in seen.withLock { $0.append(diagnostic) } }) { body() }
        return seen.withLock { $0 }
    }

    @Test func completingAFutureTwiceKeepsTheFirstResultAndReportsIt() {
        let future = SimpleFutures.Future<Int>()
        let reported = diagnostics {
            future.success(1)
            future.success(2)
            future.failure(TestError.failed)
        }
        #expect(future.result?.value == 1)
        #expect(reported.count == 2)
        #expect(reported.allSatisfy { if case .futureCompletedTwice = $0 { true } else { false } })
    }

    @Test func completingAPromiseTwiceKeepsTheFirstResultAndReportsIt() {
        let promise = SimpleFutures.Promise<Int>()
        let reported = diagnostics {
            promise.failure(TestError.failed)
            promise.success(2)
        }
        #expect(promise.future.result?.error as? TestError == .failed)
        #expect(reported.count == 1)
    }

    @Test func completionHandlerCalledTwiceKeepsTheFirstResultAndReportsIt() {
        var handler: (@Sendable (Int, (any Error)?) -> Void)?
        let reported = diagnostics {
            let request = SimpleFutures.future { (completion: @escaping @Sendable (Int, (any Error)?) -> Void) in
                handler = completion
            }
            handler?(1, nil)
            handler?(2, nil)
            #expect(request.result?.value == 1)
        }
        #expect(reported.count == 1)
    }

    @Test func completingWithAStreamTakesItsFirstResultOnly() {
        let stream = SimpleFutures.FutureStream<Int>()
        let future = SimpleFutures.Future<Int>()
        future.completeWith(context: ImmediateContext(), stream: stream)
        stream.success(1)
        stream.success(2)
        #expect(future.result?.value == 1)
    }

    @Test func completeWithAfterCompletionIsReported() {
        let future = SimpleFutures.Future(value: 1)
        let reported = diagnostics {
            future.completeWith(context: ImmediateContext(), future: SimpleFutures.Future(value: 2))
        }
        #expect(future.result?.value == 1)
        #expect(reported.count == 1)
    }
}
