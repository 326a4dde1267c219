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
        /// `forced()` on the end of an immediate chain of 100 maps, from inside a callback of that chain, over a
        /// promise completed later. The end is completed by work the thread queued on its trampoline; the old
        /// code deadlocked past 60 links. Checked from callbacks at several depths.
        @Test(arguments: [0, 30, 47, 48, 60, 99])
        func forcedInsideACallbackOfADeepImmediateChainReturns(_ depth: Int) {
            let seen = LockedBox<Result<Int, Never>?>(nil)
            gFinishes("forced() inside a callback at depth \(depth) of a 100-map chain") {
                let promise = Promise<Int, Never>()
                var chain = [promise.future]
                for _ in 0..<100 { chain.append(chain.last!.map(immediateExecutionContext) { $0 + 1 }) }
                let end = chain.last!
                chain[depth].onSuccess(immediateExecutionContext) { _ in seen.value = end.forced() }
                promise.success(0)
            }
            #expect(seen.value == .success(100))
        }

        /// The same with a deadline: the timed form also runs the queued work before waiting.
        @Test func timedForcedInsideADeepChainReturnsTheResult() {
            let seen = LockedBox<Result<Int, Never>??>(nil)
            gFinishes("forced(deadline) inside a deep chain") {
                let promise = Promise<Int, Never>()
                var chain = [promise.future]
                for _ in 0..<100 { chain.append(chain.last!.map(immediateExecutionContext) { $0 + 1 }) }
                let end = chain.last!
                chain[70].onSuccess(immediateExecutionContext) { _ in
                    seen.value = end.forced(.now() + .seconds(gPatience / 2))
                }
                promise.success(0)
            }
            #expect(seen.value == .some(.success(100)))
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

        /// `forced()` returns as soon as the future completes, even though the completing thread then runs a
        /// callback that blocks until the forcing thread has returned.
        @Test(arguments: [GFace.future, .promise, .bfTask, .deferredRun])
        func forcedReturnsAtCompletionNotAfterTheCallbacks(_ face: GFace) {
            let subject = GCase(face: face, entry: .pendingThenCompleted).make()
            let cell = subject.cell!
            let forcedReturned = DispatchSemaphore(value: 0)
            let callbackSawIt = GCounter()
            subject.onComplete(immediateExecutionContext) { _ in
                if forcedReturned.wait(timeout: .now() + .seconds(gPatience / 2)) == .success {
                    callbackSawIt.increment()
                }
            }
            let value = LockedBox<Int?>(nil)
            Thread {
                value.value = try? cell.forced().get()
                forcedReturned.signal()
            }.start()
            // Bounded poll until the waiter is stored next to the callback (no fixed sleep).
            gSpin { gEntries(cell).live >= 2 }
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

        /// Awaits the subject's result through its face's own `async` API.
        static func awaitValue(_ subject: GSubject) async -> Int {
            if let cell = subject.cell {
                return (try? await cell.get()) ?? -1
            }
            return await withCheckedContinuation { continuation in
                subject.onComplete(immediateExecutionContext) { continuation.resume(returning: (try? $0.get()) ?? -1) }
            }
        }

        @Test func getOnACompletedFutureReturnsEvenInACancelledTask() async throws {
            let future = Future<Int, Never>(value: 3)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await future.get(onTaskCancellation: .stopWaiting)
            }
            #expect(try await task.value == 3)
        }

        @Test func forcedWithAnExpiredDeadlineOnAPendingFutureReturnsNil() {
            let future = Future<Int, Never>()
            #expect(future.forced(.now()) == nil)
            #expect(!future.isCompleted)
        }
    }
}
