import Bolts
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

        @Test(arguments: GFace.sharedFaces)
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
    }
}
