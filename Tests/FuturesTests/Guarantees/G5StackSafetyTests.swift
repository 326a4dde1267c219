import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

/// The issue's recursion: a million `flatMap`s on completed futures, on the immediate context.
private func down(_ n: Int) -> Future<Int, Never> {
    n == 0 ? Future(value: 0) : Future(value: n).flatMap(immediateExecutionContext) { down($0 - 1) }
}

/// The same through `recoverWith` over failed completed futures.
private func downRecovering(_ n: Int) -> Future<Int, GError> {
    n == 0
        ? Future(value: 0)
        : Future<Int, GError>(error: .failed(n)).recoverWith(context: immediateExecutionContext) { error in
            guard case .failed(let left) = error else { return Future(value: -1) }
            return downRecovering(left - 1)
        }
}

/// The same with Bolts continuations on the immediate executor.
private func downTask(_ n: Int) -> BFTask<Int> {
    n == 0
        ? BFTask(result: 0)
        : BFTask(result: n).continueOnSuccessWithTask(executor: .immediate) { (succeeded: BFTask<Int>) -> BFTask<Int> in
            let value = succeeded.result!
            return downTask(value - 1)
        }
}

/// The same with `Deferred` steps: a recursion of `flatMap`s, run once at the end.
private func downDeferred(_ n: Int) -> Deferred<Int, Never> {
    n == 0 ? .unit(0) : Deferred.unit(n).flatMap { downDeferred($0 - 1) }
}

extension Guarantees {
    /// G5. Stack-safe at any depth: a million steps in bounded stack in a Swift `Task`, on a Dispatch queue and on
    /// a plain thread; dropping a pending chain of any length frees it without recursion.
    @Suite("G5 Stack-safe at any depth")
    struct G5StackSafetyTests {
        static let million = testDepth
        /// The depth of the other faces' equivalents. The issue's snippets above run at a million steps; the
        /// equivalents run at 100,000 to keep the suite's time reasonable in debug builds (a million steps
        /// through a face costs 3–5 s per runner there). 100,000 is still 2,000× the trampoline's frame budget
        /// (48), so an unbounded recursion would overflow any thread's stack all the same.
        static let deep = heavyTestDepth

        @Test(arguments: GRunner.allCases)
        func theIssuesFlatMapRecursionReturnsZeroSynchronously(_ runner: GRunner) async {
            let result = await runner.run { down(Self.million).result }
            #expect(result == .success(0))
        }

        @Test(arguments: GRunner.allCases)
        func aRecoverWithRecursionOverFailedFuturesReturnsSynchronously(_ runner: GRunner) async {
            let result = await runner.run { downRecovering(Self.million).result }
            #expect(result == .success(0))
        }

        /// `onComplete` and `onSuccess` on a completed future run the callback at once (their fast path,
        /// which stores nothing): through the trampoline like every synchronous run, so callbacks that each
        /// register the next from inside the previous one nest no deeper than its frame budget, a million
        /// times over, and each runs exactly once, in order.
        @Test(arguments: GRunner.allCases)
        func aMillionCallbacksEachRegisteredFromThePreviousOneOnCompletedFuturesRun(_ runner: GRunner) async {
            let ran = await runner.run { () -> [Int] in
                let count = GCounter()
                let order = GCounter()  // the step that ran last, + 1: checks the order
                @Sendable func step(_ n: Int) {
                    guard n < Self.million else { return }
                    let next: @Sendable (Int) -> Void = { value in
                        if order.value == value { order.increment() }
                        count.increment()
                        step(value + 1)
                    }
                    if n.isMultiple(of: 2) {
                        Future<Int, Never>(value: n).onComplete(immediateExecutionContext) {
                            if case .success(let value) = $0 { next(value) }
                        }
                    } else {
                        Future<Int, Never>(value: n).onSuccess(immediateExecutionContext) { next($0) }
                    }
                }
                step(0)
                return [count.value, order.value]
            }
            #expect(ran == [Self.million, Self.million])
        }

        @Test(arguments: GRunner.allCases)
        func aMillionMapsOnAPendingRootCompleteWhenItCompletes(_ runner: GRunner) async {
            let result = await runner.run { () -> Result<Int, Never>? in
                let promise = Promise<Int, Never>()
                var last = promise.future
                for _ in 0..<Self.million { last = last.map(immediateExecutionContext) { $0 + 1 } }
                promise.success(0)
                return last.result
            }
            #expect(result == .success(Self.million))
        }

        @Test(arguments: GRunner.allCases)
        func aMillionLinkPendingChainDroppedWithoutCompletingIsFreed(_ runner: GRunner) async {
            let freed = await runner.run { () -> Bool in
                weak var weakLast: Future<Int, Never>?
                do {
                    let root = Future<Int, Never>()
                    var last = root
                    for _ in 0..<Self.million { last = last.map(immediateExecutionContext) { $0 + 1 } }
                    weakLast = last
                }
                // Dropping the root released a million nested futures: no recursion, no crash.
                return weakLast == nil
            }
            #expect(freed)
        }

        @Test(arguments: GRunner.allCases)
        func cancellationOnTheLastOfAMillionPendingMapsReachesTheProducer(_ runner: GRunner) async {
            let outcome = await runner.run { () -> (asked: Int, completed: Bool) in
                let promise = Promise<Int, any Error>()
                let asked = GCounter()
                promise.onCancellationRequested {
                    asked.increment()
                    promise.failure(FuturesError.cancelled)
                }
                var last = promise.future
                for _ in 0..<Self.million { last = last.map(immediateExecutionContext) { $0 + 1 } }
                last.requestCancellation()
                return (asked.value, last.isCompleted)
            }
            #expect(outcome.asked == 1)
            #expect(outcome.completed)
        }

        @Test(arguments: GRunner.allCases)
        func aDeepChainOfImmediateContinuationsOnAPendingTaskCompletes(_ runner: GRunner) async {
            let result = await runner.run { () -> Int? in
                let source = BFTaskCompletionSource<Int>()
                var last = source.task
                for _ in 0..<Self.deep {
                    last = last.continueWith(executor: .immediate) { (task: BFTask<Int>) -> Int in task.result! + 1 }
                }
                source.set(result: 0)
                return last.result
            }
            #expect(result == Self.deep)
        }

        @Test(arguments: GRunner.allCases)
        func aDeepContinuationRecursionReturnsSynchronously(_ runner: GRunner) async {
            let result = await runner.run { downTask(Self.deep).result }
            #expect(result == 0)
        }

        @Test(arguments: GRunner.allCases)
        func aDeepDeferredChainRuns(_ runner: GRunner) async {
            let result = await runner.run { () -> Result<Int, Never>? in
                var deferred = Deferred<Int, Never>.unit(0)
                for _ in 0..<Self.deep { deferred = deferred.map { $0 + 1 } }
                return deferred.run().result
            }
            #expect(result == .success(Self.deep))
        }

        @Test(arguments: GRunner.allCases)
        func aDeepDeferredRecursionRuns(_ runner: GRunner) async {
            let result = await runner.run { downDeferred(Self.deep).run().result }
            #expect(result == .success(0))
        }

        @Test(arguments: GRunner.allCases)
        func aDeepDeferredChainOverAPendingTrunkCompletesLater(_ runner: GRunner) async {
            let result = await runner.run { () -> Result<Int, Never>? in
                let completers = LockedBox<[@Sendable (Result<Int, Never>) -> Void]>([])
                var deferred = Deferred<Int, Never> { complete in completers.withValue { $0.append(complete) } }
                for _ in 0..<Self.deep { deferred = deferred.map { $0 + 1 } }
                let started = deferred.run()
                for complete in completers.value { complete(.success(0)) }
                return started.result
            }
            #expect(result == .success(Self.deep))
        }

        /// Streams: each link is a stream with its own subscription and history, ~10× a future's cost, so the
        /// chain is 100,000 links (about as long as a million future links take); still 2,000× the trampoline's
        /// frame budget, so an unbounded recursion would overflow any thread's stack.
        @Test(arguments: GRunner.allCases)
        func aLongChainOfImmediateStreamMapsDeliversInBoundedStack(_ runner: GRunner) async {
            let links = Self.deep
            let delivered = await runner.run { () -> [Int] in
                let promise = StreamPromise<Int>()
                var last = promise.stream
                for _ in 0..<links { last = last.map(context: immediateExecutionContext) { $0 + 1 } }
                let seen = GLog<Int>()
                last.onSuccess(context: immediateExecutionContext) { seen.append($0) }
                promise.success(0)
                promise.success(1)
                promise.finish()
                return seen.values
            }
            #expect(delivered == [links, links + 1])
        }

        @Test(arguments: GRunner.allCases)
        func aLongPendingStreamChainDroppedIsFreed(_ runner: GRunner) async {
            let links = Self.deep
            let freed = await runner.run { () -> Bool in
                weak var weakLast: FutureStream<Int>?
                do {
                    let promise = StreamPromise<Int>()
                    var last = promise.stream
                    for _ in 0..<links { last = last.map(context: immediateExecutionContext) { $0 + 1 } }
                    weakLast = last
                }
                return weakLast == nil
            }
            #expect(freed)
        }

        /// `traverse(maxConcurrent:)` over many elements whose futures complete at once, on the immediate
        /// context: while the first element blocks, the rest wait; when it completes, each element starts
        /// the next from its completion, a cascade that the limiter's starts run in bounded stack.
        @Test(arguments: GRunner.allCases)
        func aBoundedTraversalOfElementsCompletingAtOnceCompletes(_ runner: GRunner) async {
            let count = Self.deep
            let result = await runner.run { () -> (count: Int, last: Int?)? in
                let blocker = Promise<Int, Never>()
                let all = (0..<count).traverse(maxConcurrent: 2, immediateExecutionContext) { index in
                    index == 0 ? blocker.future : Future(value: index)
                }
                blocker.success(0)
                return all.value.map { ($0.count, $0.last) }
            }
            #expect(result?.count == count && result?.last == count - 1)
        }

        @Test(arguments: GRunner.allCases)
        func aDeepChainOfZipsOfCompletedFuturesCompletes(_ runner: GRunner) async {
            let result = await runner.run { () -> Int? in
                var last = Future<Int, Never>(value: 0)
                for _ in 0..<Self.deep {
                    last = last.zip(Future(value: 1)).map(immediateExecutionContext) { $0 + $1 }
                }
                return last.value
            }
            #expect(result == Self.deep)
        }
    }
}
