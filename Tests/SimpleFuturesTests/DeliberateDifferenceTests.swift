import Dispatch
import Foundation
import SimpleFutures
import Synchronization
import Testing

// One test per deliberate difference from SimpleFutures listed in the module's migration article
// (MigratingFromSimpleFutures.md), showing the behaviour chosen. The misuse outcomes (completing twice,
// `completeWith(stream:)`) are in GuaranteeTests.swift.

@Suite("SimpleFutures: deliberate differences")
struct DeliberateDifferenceTests {
    @Test func aCustomContextIsAValue() async {
        let ran = Counter()
        let counting = ExecutionContext { task in
            ran.increment()
            task()
        }
        let future = Future(value: 1).map(context: counting) { $0 + 1 }
        #expect(await awaitValue(of: future) == 2)
        #expect(ran.value == 1)
    }

    @Test func queueContextIsTheSameTypeAsExecutionContext() {
        let context: ExecutionContext = QueueContext.main
        let queue: QueueContext = ImmediateContext()
        #expect(type(of: context) == type(of: queue))
    }

    @Test func theDefaultContextOffTheMainThreadIsNotTheMainQueue() async {
        let onMain: Bool = await Task.detached {
            await withCheckedContinuation { continuation in
                Future(value: 1).onSuccess { _ in continuation.resume(returning: Thread.isMainThread) }
            }
        }.value
        #expect(!onMain)
    }

    @Test func copiesOfAFutureAreTheSameFuture() {
        let future = Future<Int>()
        let copy = future
        copy.success(1)
        #expect(future.result?.value == 1)
        #expect(future.base === copy.base)
    }

    @Test func aStreamDeliversInOrderOnAConcurrentQueue() async {
        let stream = FutureStream<Int>()
        let count = 1_000
        let received = Mutex<[Int]>([])
        let all: [Int] = await withCheckedContinuation { continuation in
            stream.onSuccess(context: QueueContext.global) { value in
                let done: [Int]? = received.withLock { list in
                    list.append(value)
                    return list.count == count ? list : nil
                }
                if let done { continuation.resume(returning: done) }
            }
            for value in 0..<count { stream.success(value) }
        }
        #expect(all == Array(0..<count))
    }

    @Test func aCancelledStreamCombinatorsStreamTakesNoMoreResults() {
        let stream = FutureStream<Int>()
        let token = CancelToken()
        let mapped = stream.map(context: ImmediateContext(), cancelToken: token) { $0 }
        stream.cancel(token)
        mapped.success(1)
        #expect(mapped.count == 0)
    }

    @Test func optionalFilterAndForEachAreKept() {
        let some: Int? = 3
        #expect(some.filter { $0 > 2 } == 3)
        #expect(some.filter { $0 > 3 } == nil)
        let seen = Counter()
        some.forEach { _ in seen.increment() }
        #expect(seen.value == 1)
    }
}

@Suite("SimpleFutures: source compatibility")
struct SourceCompatibilityTests {
    @Test func writersCanBePassedAsFunctions() {
        let promise = Promise<Int>()
        let future = Future<Int>()
        let stream = FutureStream<Int>()
        let completions: [(Int) -> Void] = [promise.success, future.success, stream.success]
        for completion in completions { completion(1) }
        let failures: [(any Error) -> Void] = [promise.failure, future.failure, stream.failure]
        for failure in failures { failure(TestError.failed) }
        #expect(promise.future.result?.value == 1)
        #expect(future.result?.value == 1)
        #expect(stream.count == 2)
    }
}
