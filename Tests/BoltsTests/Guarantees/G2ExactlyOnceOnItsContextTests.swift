import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G2. Each callback exactly once, with the result, on the context it was registered with.
    @Suite("G2 Each callback exactly once, on its context")
    struct G2ExactlyOnceOnItsContextTests {
        @Test(arguments: GCase.all)
        func anImmediateCallbackRunsOnceOnTheRightThread(_ testCase: GCase) {
            let subject = testCase.make(value: 7)
            let runs = GLog<(Int?, UInt)>()
            let registeringThread = gThreadID
            for _ in 0..<3 {
                subject.onComplete(immediateExecutionContext) { runs.append((try? $0.get(), gThreadID)) }
            }
            switch testCase.entry {
            case .completed:
                // Run at registration, on the registering thread, before the call returned.
                #expect(runs.values.count == 3)
            case .pendingThenCompleted:
                #expect(runs.values.isEmpty)
                // Completed on another thread: the immediate callbacks run there.
                let completed = DispatchSemaphore(value: 0)
                Thread {
                    subject.complete()
                    completed.signal()
                }.start()
                completed.wait()
                #expect(runs.values.count == 3)
                #expect(runs.values.allSatisfy { $0.1 != registeringThread })
            }
            #expect(runs.values.allSatisfy { $0.0 == 7 })
            if testCase.entry == .completed {
                #expect(runs.values.allSatisfy { $0.1 == registeringThread })
            }
            subject.complete()
            #expect(runs.values.count == 3)
        }

        @Test(arguments: GCase.all)
        func aQueueCallbackRunsOnceOnItsQueue(_ testCase: GCase) {
            let subject = testCase.make(value: 7)
            let queue = GQueue("g2.queue")
            let runs = GLog<(Int?, Bool)>()
            for _ in 0..<3 {
                subject.onComplete(queue.context) { runs.append((try? $0.get(), queue.isCurrent)) }
            }
            if testCase.entry == .completed {
                // Handed to the queue before the call returned: draining the queue finds them.
                queue.drain()
                #expect(runs.values.count == 3)
            }
            subject.complete()
            subject.complete()
            queue.drain()
            queue.drain()
            #expect(runs.values.count == 3)
            #expect(runs.values.allSatisfy { $0.0 == 7 && $0.1 })
        }

        @Test(arguments: GCase.all)
        func aContextThatNeverRunsItsTaskLosesOnlyThatCallback(_ testCase: GCase) {
            let subject = testCase.make(value: 3)
            let dropping = ExecutionContext { _ in }
            let before = GCounter()
            let after = GCounter()
            let lost = GCounter()
            subject.onComplete(immediateExecutionContext) { _ in before.increment() }
            subject.onComplete(dropping) { _ in lost.increment() }
            subject.onComplete(immediateExecutionContext) { _ in after.increment() }
            subject.complete()
            let late = GCounter()
            subject.onComplete(immediateExecutionContext) { _ in late.increment() }
            #expect(before.value == 1 && after.value == 1 && late.value == 1)
            #expect(lost.value == 0)
        }

        @Test(arguments: GCase.all)
        func manyThreadsRegisteringWhileAnotherCompletesRunEachCallbackOnce(_ testCase: GCase) {
            for _ in 0..<20 {
                let subject = testCase.make(value: 5)
                let queue = GQueue("g2.many")
                let runs = GCounter()
                let wrong = GCounter()
                let perThread = 50
                let threads = 8
                DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
                    if index == threads {
                        subject.complete()
                        return
                    }
                    for i in 0..<perThread {
                        let context = i.isMultiple(of: 2) ? immediateExecutionContext : queue.context
                        subject.onComplete(context) { result in
                            if (try? result.get()) != 5 { wrong.increment() }
                            runs.increment()
                        }
                    }
                }
                queue.drain()
                queue.drain()
                #expect(runs.value == threads * perThread)
                #expect(wrong.value == 0)
            }
        }
    }
}
