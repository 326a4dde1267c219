import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G3. Order: registration order per serial context and for immediate callbacks; waiters first; one stream
    /// publication order.
    @Suite("G3 Order")
    struct G3OrderTests {
        @Test(arguments: GCase.shared)
        func callbacksOnOneSerialQueueRunInRegistrationOrder(_ testCase: GCase) {
            let subject = testCase.make()
            let queue = GQueue("g3.serial")
            let order = GLog<Int>()
            for index in 0..<100 {
                subject.onComplete(queue.context) { _ in order.append(index) }
            }
            subject.complete()
            queue.drain()
            #expect(order.values == Array(0..<100))
        }

        @Test(arguments: GCase.shared)
        func immediateCallbacksRunInRegistrationOrder(_ testCase: GCase) {
            let subject = testCase.make()
            let order = GLog<Int>()
            for index in 0..<100 {
                subject.onComplete(immediateExecutionContext) { _ in order.append(index) }
            }
            subject.complete()
            subject.onComplete(immediateExecutionContext) { _ in order.append(100) }
            #expect(order.values == Array(0...100))
        }

        @Test(arguments: GCase.shared)
        func callbacksOnASerialOperationQueueRunInRegistrationOrder(_ testCase: GCase) {
            let subject = testCase.make()
            let operations = OperationQueue()
            operations.maxConcurrentOperationCount = 1
            let order = GLog<Int>()
            for index in 0..<50 {
                subject.onComplete(operations.context) { _ in order.append(index) }
            }
            subject.complete()
            operations.waitUntilAllOperationsAreFinished()
            #expect(order.values == Array(0..<50))
        }

        /// The race the `completedWithLate` state exists for: registrations on one serial queue from one thread
        /// while another thread completes (and hands the earlier registrations to the queue).
        // Streams promise less here (GUARANTEES.md G3): a subscription racing a publication may be served
        // first, so the stream face is not among this test's arguments; its per-subscriber publication
        // order is tested in StreamStressTests.
        @Test(arguments: GFace.sharedFaces.filter { $0 != .stream })
        func registrationOrderHoldsOnASerialQueueWhileAnotherThreadCompletes(_ face: GFace) {
            let trials = 200
            var disordered = 0
            for _ in 0..<trials {
                let subject = GCase(face: face, entry: .pendingThenCompleted).make()
                let queue = GQueue("g3.race")
                let order = GLog<Int>()
                let start = DispatchSemaphore(value: 0)
                let completed = DispatchSemaphore(value: 0)
                Thread {
                    start.wait()
                    subject.complete()
                    completed.signal()
                }.start()
                for index in 0..<40 {
                    if index == 10 { start.signal() }
                    subject.onComplete(queue.context) { _ in order.append(index) }
                }
                completed.wait()
                queue.drain()
                queue.drain()
                if order.values != Array(0..<40) { disordered += 1 }
            }
            #expect(disordered == 0, "\(disordered) of \(trials) trials ran callbacks out of registration order")
        }

        @Test(arguments: GEntry.allCases)
        func waitersAreWokenBeforeAnyCallbackRuns(_ entry: GEntry) async {
            // A callback that blocks until the waiter has been woken: if waiters came after callbacks, the
            // waiter would never be woken (bounded by the deadline).
            let promise = Promise<Int, Never>()
            if entry == .completed { promise.success(1) }
            let waiterWoken = DispatchSemaphore(value: 0)
            let callbackSawWaiter = GCounter()
            let forcedReturned = DispatchSemaphore(value: 0)
            if entry == .pendingThenCompleted {
                Thread {
                    _ = promise.future.forced()
                    waiterWoken.signal()
                    forcedReturned.signal()
                }.start()
                // Let the waiter register (bounded poll on the stored entries, no fixed sleep).
                let registered = await gEventually { gEntries(promise.future).live == 1 }
                #expect(registered)
            }
            promise.future.onSuccess(immediateExecutionContext) { _ in
                if entry == .pendingThenCompleted,
                    waiterWoken.wait(timeout: .now() + .seconds(gPatience / 2)) == .success
                {
                    callbackSawWaiter.increment()
                }
            }
            gFinishes("completing with a waiter and a blocking callback") { promise.trySuccess(1) }
            if entry == .pendingThenCompleted {
                #expect(callbackSawWaiter.value == 1)
                forcedReturned.wait()
            } else {
                #expect(promise.future.forced() == .success(1))
            }
        }

        /// What the waiter clause does not promise: a callback registered after completion runs at once on
        /// its own thread, so it may run before the completing thread wakes the waiters. Here the completion
        /// is queued on a trampoline at its maximum depth while another thread registers.
        @Test func aCallbackRegisteredAfterCompletionMayRunBeforeTheWaitersAreWoken() {
            let promise = Promise<Int, Never>()
            let order = LockedBox<[String]>([])
            promise.future.onCompletionWakeUp { _ in order.withValue { $0.append("waiter") } }
            promise.future.onComplete(immediateExecutionContext) { _ in
                order.withValue { $0.append("registered before") }
            }
            func nested(_ depth: Int, _ body: @escaping () -> Void) {
                if depth == 0 { return body() }
                Trampoline.run((depth - 1, body)) { nested($0, $1) }
            }
            nested(Trampoline.maxDepth) {
                promise.success(1)  // no frame left: the completion's run is queued behind this frame
                let registered = DispatchSemaphore(value: 0)
                Thread {
                    promise.future.onComplete(immediateExecutionContext) { _ in
                        order.withValue { $0.append("registered after") }
                    }
                    registered.signal()
                }.start()
                registered.wait()
            }
            #expect(order.value == ["registered after", "waiter", "registered before"])
        }

        @Test(arguments: GEntry.allCases)
        func aStreamDeliversOneGlobalOrderToEverySubscriber(_ entry: GEntry) {
            let promise = StreamPromise<Int>()
            let count = 200
            if entry == .completed {
                for value in 0..<count { promise.success(value) }
                promise.finish()
            }
            let queues = (0..<4).map { GQueue("g3.stream.\($0)") }
            let logs = (0..<5).map { _ in GLog<Int>() }
            for (index, queue) in queues.enumerated() {
                promise.stream.onSuccess(context: queue.context) { logs[index].append($0) }
            }
            promise.stream.onSuccess(context: immediateExecutionContext) { logs[4].append($0) }
            if entry == .pendingThenCompleted {
                // Publishers on several threads: whatever order the stream chose, every subscriber sees it.
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    for value in stride(from: thread, to: count, by: 4) { promise.success(value) }
                }
                promise.finish()
            }
            for _ in 0..<4 {
                for queue in queues { queue.drain() }
            }
            let first = logs[0].values
            #expect(first.count == count)
            #expect(Set(first) == Set(0..<count))
            for log in logs { #expect(log.values == first) }
        }
    }
}
