import Dispatch
import Testing

@testable import Futures

/// The cell stores its state by hand (Future+Storage.swift): every kind of value and error, inline or
/// boxed, is kept while the future lives, handed out intact, and released exactly once with the future.
@Suite struct FutureStorageTests {
    final class Tracked: Sendable {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    struct TrackedError: Error {
        let object: Tracked
    }

    /// Five words: too large for the cell's 17 bytes, so the state is boxed.
    struct Large: Sendable {
        let object: Tracked
        let a: Int, b: Int, c: Int, d: Int
    }

    /// Nine bytes of trivial payload next to a reference: 17 bytes, the largest that fits inline.
    struct Edge: Sendable {
        let object: Tracked
        let a: UInt64
        let b: UInt8
    }

    @Test func theLayoutDecision() {
        #expect(!Future<Int, Never>.boxesState)
        #expect(!Future<String, any Error>.boxesState)
        #expect(!Future<Edge, TrackedError>.boxesState)
        #expect(Future<Large, Never>.boxesState)
        #expect(Future<Int, LargeError>.boxesState)
    }

    struct LargeError: Error {
        let a: Int, b: Int, c: Int
    }

    @Test(arguments: [false, true])
    func anInlineValueIsKeptAndReleasedOnce(pending: Bool) {
        weak var weakObject: Tracked?
        do {
            let object = Tracked(7)
            weakObject = object
            let future: Future<Edge, Never>
            if pending {
                let promise = Promise<Edge, Never>()
                future = promise.future
                promise.success(Edge(object: object, a: 1, b: 2))
            } else {
                future = Future(value: Edge(object: object, a: 1, b: 2))
            }
            #expect(future.value?.object.id == 7)
            #expect(future.value?.a == 1)
            #expect(future.value?.b == 2)
            #expect(future.map(immediateExecutionContext) { $0.object.id }.value == 7)
        }
        #expect(weakObject == nil)
    }

    @Test(arguments: [false, true])
    func aBoxedValueIsKeptAndReleasedOnce(pending: Bool) {
        weak var weakObject: Tracked?
        do {
            let object = Tracked(9)
            weakObject = object
            let large = Large(object: object, a: 1, b: 2, c: 3, d: 4)
            let future: Future<Large, Never>
            if pending {
                let promise = Promise<Large, Never>()
                future = promise.future
                let seen = LockedBox(0)
                future.onSuccess(immediateExecutionContext) { value in seen.withValue { $0 = value.d } }
                promise.success(large)
                #expect(seen.value == 4)
            } else {
                future = Future(value: large)
            }
            #expect(future.value?.object.id == 9)
            #expect(future.value?.c == 3)
        }
        #expect(weakObject == nil)
    }

    @Test(arguments: [false, true])
    func anErrorIsKeptAndReleasedOnce(pending: Bool) {
        weak var weakObject: Tracked?
        do {
            let object = Tracked(3)
            weakObject = object
            let future: Future<Int, TrackedError>
            if pending {
                let promise = Promise<Int, TrackedError>()
                future = promise.future
                promise.failure(TrackedError(object: object))
            } else {
                future = Future(error: TrackedError(object: object))
            }
            #expect(future.error?.object.id == 3)
            #expect(future.recover(context: immediateExecutionContext) { $0.object.id }.value == 3)
        }
        #expect(weakObject == nil)
    }

    @Test func aDroppedPendingFutureReleasesItsCallbacks() {
        weak var weakObject: Tracked?
        do {
            let object = Tracked(1)
            weakObject = object
            let future = Future<Large, Never>()  // boxed
            future.onSuccess(immediateExecutionContext) { _ in _ = object }
            let inline = Future<String, Never>()
            inline.onSuccess(immediateExecutionContext) { _ in _ = object }
        }
        #expect(weakObject == nil)
    }

    /// Callbacks registered on other contexts while the completer hands out (the `completedWithLate`
    /// state) from many threads: each runs once with the value, and the value is released with the future.
    @Test func lateCallbacksUnderContention() async {
        weak var weakObject: Tracked?
        let rounds = 200
        for round in 0..<rounds {
            let object = Tracked(round)
            weakObject = object
            let promise = Promise<Edge, Never>()
            let queue = DispatchQueue(label: "late")
            let group = DispatchGroup()
            let counter = LockedBox(0)
            for _ in 0..<4 {
                group.enter()
                promise.future.onSuccess(queue.context) { edge in
                    if edge.object.id == round { counter.withValue { $0 += 1 } }
                    group.leave()
                }
            }
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                if index == 0 {
                    promise.success(Edge(object: object, a: 0, b: 0))
                } else {
                    group.enter()
                    promise.future.onSuccess(queue.context) { edge in
                        if edge.object.id == round { counter.withValue { $0 += 1 } }
                        group.leave()
                    }
                }
            }
            await withCheckedContinuation { continuation in
                group.notify(queue: .global()) { continuation.resume() }
            }
            #expect(counter.value == 7)
        }
        #expect(weakObject == nil)
    }
}
