import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G9. Waiting: `get()` suspends without blocking a thread; `forced()` blocks only its thread and works
    /// inside callbacks of immediate chains of any depth.
    @Suite("G9 Waiting")
    struct G9WaitingTests {
        /// Awaits the task's result through its `async` API (`get()`).
        static func awaitValue(_ subject: GSubject) async -> Int {
            (try? await BFTask(subject.cell!).get()) ?? -1
        }

        /// `forced()` returns as soon as the future completes, even though the completing thread then runs a
        /// callback that blocks until the forcing thread has returned.
        @Test(arguments: GFace.allCases)
        func forcedReturnsAtCompletionNotAfterTheCallbacks(_ face: GFace) {
            let subject = GCase(face: face, entry: .pendingThenCompleted).make()
            let cell = subject.cell!
            let forcedReturned = DispatchSemaphore(value: 0)
            let callbackSawIt = GCounter()
            subject.onComplete(immediateExecutionContext) { _ in
                if forcedReturned.wait(timeout: .now() + .seconds(5)) == .success { callbackSawIt.increment() }
            }
            let value = LockedBox<Int?>(nil)
            Thread {
                value.value = try? cell.forced().get()
                forcedReturned.signal()
            }.start()
            // Bounded poll until the waiter is stored next to the callback (no fixed sleep).
            for _ in 0..<10_000_000 where gEntries(cell).live < 2 { sched_yield() }
            gFinishes("completing while a thread waits") { subject.complete() }
            #expect(callbackSawIt.value == 1)
            #expect(value.value == 42)
        }

        /// Many more awaiting tasks than cooperative threads: if `get()` blocked a thread, the pool would starve
        /// and the completing task below could never run.
        @Test(.hangGuard(), arguments: GFace.sharedFaces)
        func manyTasksAwaitingDoNotBlockThreads(_ face: GFace) async {
            let subject = GCase(face: face, entry: .pendingThenCompleted).make()
            let tasks = 64
            let total = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<tasks {
                    group.addTask { await Self.awaitValue(subject) }
                }
                group.addTask {
                    subject.complete()
                    return 0
                }
                var sum = 0
                for await value in group { sum += value }
                return sum
            }
            #expect(total == tasks * 42)
        }

        /// Bolts: `waitUntilFinished()` inside a continuation of a deep immediate continuation chain.
        @Test func waitUntilFinishedInsideADeepContinuationChainReturns() {
            let seen = LockedBox<Int?>(nil)
            gFinishes("waitUntilFinished inside a deep continuation chain") {
                let source = BFTaskCompletionSource<Int>()
                var chain = [source.task]
                for _ in 0..<100 {
                    chain.append(
                        chain.last!.continueWith(executor: .immediate) { (task: BFTask<Int>) -> Int in task.result! + 1
                        })
                }
                let end = chain.last!
                chain[60].continueWith(executor: .immediate) { (_: BFTask<Int>) -> Void in
                    end.waitUntilFinished()
                    seen.value = end.result
                }
                source.set(result: 0)
            }
            #expect(seen.value == 100)
        }
    }
}
