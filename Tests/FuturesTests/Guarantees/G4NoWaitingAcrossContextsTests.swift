import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G4. No callback waits for a callback on another context; registering on a completed future runs only
    /// that callback.
    @Suite("G4 No waiting across contexts; registering is bounded")
    struct G4NoWaitingAcrossContextsTests {
        /// The issue's deadlock: a callback queued on `q` while `q` is busy held back the immediate `map`.
        @Test func theIssuesQueueSyncSnippetCompletes() {
            let queue = DispatchQueue(label: "g4.snippet")
            let result = LockedBox<Result<Int, Never>?>(nil)
            gFinishes("the issue's q.sync snippet") {
                let f = Future<Int, Never>(value: 1)
                queue.sync {
                    f.onSuccess(queue.context) { _ in }
                    result.value = f.map(immediateExecutionContext) { $0 }.forced()
                }
            }
            #expect(result.value == .success(1))
        }

        /// The same, on every face and entry kind: a callback handed to a busy queue does not hold back an
        /// immediate one registered (or completed) on that queue's own thread.
        @Test(arguments: GCase.all)
        func aBusyQueueHoldsBackOnlyItsOwnCallbacks(_ testCase: GCase) {
            let subject = testCase.make()
            let queue = GQueue("g4.busy")
            let immediateRan = GCounter()
            let queuedRan = GCounter()
            let seenInside = LockedBox<(immediate: Int, queued: Int)?>(nil)
            gFinishes("an immediate callback behind a callback on the busy queue (\(testCase.testDescription))") {
                queue.queue.sync {
                    subject.onComplete(queue.context) { _ in queuedRan.increment() }
                    subject.onComplete(immediateExecutionContext) { _ in immediateRan.increment() }
                    subject.complete()
                    seenInside.value = (immediateRan.value, queuedRan.value)
                }
            }
            // The immediate callback ran before `complete()` (or the registration) returned, on the queue.
            #expect(seenInside.value?.immediate == 1)
            #expect(seenInside.value?.queued == 0)
            queue.drain()
            #expect(queuedRan.value == 1)
        }

        /// The exception G4 names: a context whose `execute` blocks holds back what the completing thread
        /// hands out after it, its immediate callbacks and callbacks registered during the hand-out.
        @Test func aContextThatBlocksInExecuteHoldsBackTheHandOutBehindIt() {
            let promise = Promise<Int, Never>()
            let entered = DispatchSemaphore(value: 0)
            let gate = DispatchSemaphore(value: 0)
            let blocking = ExecutionContext { task in
                entered.signal()
                gate.wait()
                task()
            }
            let queue = DispatchQueue(label: "g4.behind-blocking")
            let late = DispatchQueue(label: "g4.registered-during-hand-out")
            let ran = LockedBox<[String]>([])
            let done = DispatchGroup()
            for _ in 0..<4 { done.enter() }
            promise.future.onComplete(blocking) { _ in
                ran.withValue { $0.append("blocking") }
                done.leave()
            }
            promise.future.onComplete(queue.context) { _ in
                ran.withValue { $0.append("queue") }
                done.leave()
            }
            promise.future.onComplete(immediateExecutionContext) { _ in
                ran.withValue { $0.append("immediate") }
                done.leave()
            }
            Thread { promise.success(1) }.start()
            entered.wait()  // the completing thread is inside the blocking context's `execute`
            promise.future.onComplete(late.context) { _ in
                ran.withValue { $0.append("late") }
                done.leave()
            }
            queue.sync {}
            late.sync {}
            #expect(ran.value.isEmpty, "nothing behind the blocking context was handed out or run")
            gate.signal()
            #expect(done.wait(timeout: .now() + .seconds(gPatience)) == .success)
            #expect(Set(ran.value) == ["blocking", "queue", "immediate", "late"])
        }

        /// `DispatchSemaphore.context` is such a context: while its semaphore is held, a queue's callback
        /// handed out after it waits.
        @Test func aSemaphoreContextHoldsBackTheCallbacksHandedOutAfterIt() {
            let promise = Promise<Int, Never>()
            let semaphore = DispatchSemaphore(value: 1)
            semaphore.wait()  // held by the test
            let handingOut = DispatchSemaphore(value: 0)
            let marker = ExecutionContext { task in
                handingOut.signal()
                task()
            }
            let queue = DispatchQueue(label: "g4.behind-semaphore")
            let queuedRan = GCounter()
            let done = DispatchGroup()
            done.enter()
            done.enter()
            promise.future.onComplete(marker) { _ in }
            promise.future.onComplete(semaphore.context) { _ in done.leave() }
            promise.future.onComplete(queue.context) { _ in
                queuedRan.increment()
                done.leave()
            }
            Thread { promise.success(1) }.start()
            handingOut.wait()  // past the marker: the semaphore's context comes next, the queue after it
            queue.sync {}
            #expect(queuedRan.value == 0)
            semaphore.signal()
            #expect(done.wait(timeout: .now() + .seconds(gPatience)) == .success)
            #expect(queuedRan.value == 1)
        }

        @Test(arguments: GCase.all)
        func aSuspendedOperationQueueDoesNotHoldBackAnImmediateCallback(_ testCase: GCase) {
            let subject = testCase.make()
            let operations = OperationQueue()
            operations.isSuspended = true
            let queuedRan = GCounter()
            let immediateRan = GCounter()
            subject.onComplete(operations.context) { _ in queuedRan.increment() }
            subject.onComplete(immediateExecutionContext) { _ in immediateRan.increment() }
            subject.complete()
            #expect(immediateRan.value == 1)
            #expect(queuedRan.value == 0)
            operations.isSuspended = false
            operations.waitUntilAllOperationsAreFinished()
            #expect(queuedRan.value == 1)
        }

        @Test(arguments: GCase.all)
        func aSuspendedDispatchQueueDoesNotHoldBackAnotherQueue(_ testCase: GCase) {
            let subject = testCase.make()
            let suspended = GQueue("g4.suspended")
            let other = GQueue("g4.other")
            suspended.queue.suspend()
            let otherRan = DispatchSemaphore(value: 0)
            let heldRan = GCounter()
            subject.onComplete(suspended.context) { _ in heldRan.increment() }
            subject.onComplete(other.context) { _ in otherRan.signal() }
            subject.complete()
            let ran = otherRan.wait(timeout: .now() + .seconds(gPatience)) == .success
            #expect(ran, "a callback on another queue waited for the suspended queue")
            #expect(heldRan.value == 0)
            suspended.queue.resume()
            suspended.drain()
            #expect(heldRan.value == 1)
        }

        /// Three threads register immediate callbacks on one completed subject: each registering call runs its
        /// own callback, on its own thread, and nobody else's.
        @Test(arguments: GCase.all)
        func eachRegistrationOnACompletedSubjectRunsOnlyItsOwnCallback(_ testCase: GCase) {
            let subject = testCase.make()
            subject.complete()
            let threads = 3
            let perThread = 2_000
            let foreign = GCounter()
            let notAtOnce = GCounter()
            let counts = (0..<threads).map { _ in GCounter() }
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                let me = gThreadID
                for _ in 0..<perThread {
                    let before = counts[thread].value
                    subject.onComplete(immediateExecutionContext) { _ in
                        if gThreadID != me { foreign.increment() }
                        counts[thread].increment()
                    }
                    if counts[thread].value != before + 1 { notAtOnce.increment() }
                }
            }
            #expect(foreign.value == 0, "callbacks ran on a thread other than the one that registered them")
            #expect(notAtOnce.value == 0, "a registering call did not run exactly its own callback")
            #expect(counts.map(\.value) == Array(repeating: perThread, count: threads))
        }
    }
}
