import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G4. No callback waits for a callback on another context; registering on a completed future runs only
    /// that callback.
    @Suite("G4 No waiting across contexts; registering is bounded")
    struct G4NoWaitingAcrossContextsTests {
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
            let ran = otherRan.wait(timeout: .now() + .seconds(10)) == .success
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
