import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G6. Released when done: callbacks after they ran, switched-off registrations and abandoned waiters at
    /// once, abandoned pending work entirely.
    @Suite("G6 Released when done")
    struct G6ReleaseTests {
        /// Captures of callbacks on every context are released once they ran.
        @Test(arguments: GCase.all)
        func everyCallbacksCapturesAreReleasedAfterItRan(_ testCase: GCase) {
            let subject = testCase.make()
            let queue = GQueue("g6.release")
            let ran = GCounter()
            weak var weakImmediate: GProbe?
            weak var weakQueued: GProbe?
            do {
                let immediateProbe = GProbe()
                let queuedProbe = GProbe()
                weakImmediate = immediateProbe
                weakQueued = queuedProbe
                subject.onComplete(immediateExecutionContext) { _ in
                    withExtendedLifetime(immediateProbe) {}
                    ran.increment()
                }
                subject.onComplete(queue.context) { _ in
                    withExtendedLifetime(queuedProbe) {}
                    ran.increment()
                }
            }
            if testCase.entry == .pendingThenCompleted {
                // Pending: the captures are held while the callbacks wait.
                #expect(weakImmediate != nil && weakQueued != nil)
            }
            subject.complete()
            queue.drain()
            #expect(ran.value == 2)
            #expect(weakImmediate == nil)
            // The queue releases its block after running it; let it finish that (bounded).
            for _ in 0..<1_000 where weakQueued != nil { queue.drain() }
            #expect(weakQueued == nil)
        }

        @Test(arguments: GFace.allCases)
        func abandonedPendingWorkOnEveryFaceIsFreed(_ face: GFace) {
            weak var weakProbe: GProbe?
            let queue = GQueue("g6.face")
            _ = gDiagnostics {
                let probe = GProbe()
                weakProbe = probe
                let subject = GCase(face: face, entry: .pendingThenCompleted).make()
                subject.onComplete(immediateExecutionContext) { _ in withExtendedLifetime(probe) {} }
                subject.onComplete(queue.context) { _ in withExtendedLifetime(probe) {} }
            }
            // A dropped promise fails its future (BFTask: `brokenPromise`) or the callbacks are released with
            // the pending future; a dropped StreamPromise finishes its stream. Either way nothing is kept.
            for _ in 0..<1_000 where weakProbe != nil { queue.drain() }
            #expect(weakProbe == nil)
        }
    }
}
