import Testing

@testable import Futures

@Suite("traverse(maxConcurrent:) holds no cycles", .hangGuard())
struct TraverseBoundedMemoryTests {
    @Test func abandonedRunningItemsReleaseTheTraversal() {
        let result = WeakSlot<Future<[Int], any Error>>()
        let typed = WeakSlot<Future<[Int], Never>>()
        let items = Recorder<WeakSlot<Future<Int, any Error>>>()
        do {
            result.object = (0..<10).traverse(maxConcurrent: 3, immediateExecutionContext) { _ in
                let placeholder = Future<Int, any Error>()
                items.append(WeakSlot(placeholder))
                return placeholder
            }
            typed.object = (0..<10).traverse(maxConcurrent: 3, immediateExecutionContext) { _ in
                Future<Int, Never>()
            }
        }
        #expect(items.values.count == 3)
        #expect(items.values.allSatisfy { $0.isFreed })
        #expect(result.isFreed)
        #expect(typed.isFreed)
    }

    @Test func aDroppedResultKeepsTraversingWhileItsItemsAreAlive() {
        let promises = LockedBox<[Promise<Int, Never>]>([])
        let finished = Promise<[Int], Never>()
        let result = WeakSlot<Future<[Int], Never>>()
        do {
            let traversal = (0..<4).traverse(maxConcurrent: 2, immediateExecutionContext) { item in
                let promise = Promise<Int, Never>()
                promises.withValue { $0.append(promise) }
                return promise.future
            }
            traversal.onSuccess(immediateExecutionContext) { finished.success($0) }
            result.object = traversal
        }
        #expect(!result.isFreed)
        for index in 0..<4 {
            let promise = promises.withValue { $0[index] }
            promise.success(index * 10)
        }
        #expect(finished.future.value == [0, 10, 20, 30])
        promises.value = []
    }

    @Test func aCancellationRequestStillReachesTheRunningItems() {
        let requested = Counter()
        let promises = LockedBox<[Promise<Int, any Error>]>([])
        let result = (0..<5).traverse(maxConcurrent: 2, immediateExecutionContext) { _ in
            let promise = Promise<Int, any Error>()
            promise.future.onCancellationRequested { requested.increment() }
            promises.withValue { $0.append(promise) }
            return promise.future
        }
        result.requestCancellation()
        #expect(requested.value == 2)
        #expect(result.error as? FuturesError == .cancelled)
        for promise in promises.value { promise.failure(FuturesError.cancelled) }
        promises.value = []
    }
}
