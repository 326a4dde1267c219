import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G7. Nothing of yours runs or is released under a library lock: callbacks, handlers and `deinit`s may call
    /// back into the library freely.
    @Suite("G7 Nothing of yours under a library lock")
    struct G7NothingUnderALockTests {
        /// A callback's captures are released after it ran; here that release runs a `deinit` that registers on,
        /// cancels and completes futures, including the one whose callback it was.
        @Test(arguments: GCase.all)
        func aDeinitRunByReleasingACallbackMayReenterTheLibrary(_ testCase: GCase) {
            let log = GLog<String>()
            let other = Promise<Int, any Error>()
            let subject = testCase.make()
            gFinishes("a deinit re-entering the library (\(testCase.testDescription))") {
                let queue = GQueue("g7.deinit")
                for context in [immediateExecutionContext, queue.context] {
                    let reentrant = GReentrantOnDeinit(
                        future: subject.cell ?? other.future, promise: other, log: log)
                    subject.onComplete(context) { _ in withExtendedLifetime(reentrant) {} }
                }
                subject.complete()
                queue.drain()
                for _ in 0..<1_000 where log.values.filter({ $0 == "deinit" }).count < 2 { queue.drain() }
            }
            #expect(log.values.filter { $0 == "deinit" }.count == 2)
            #expect(other.future.value == 2)
        }

        /// Every face: a callback registers, completes again and waits on its own subject.
        @Test(arguments: GCase.all)
        func everyFacesCallbacksMayReenterTheirSubject(_ testCase: GCase) {
            let subject = testCase.make()
            let nested = GCounter()
            gFinishes("re-entering \(testCase.testDescription) from its callback") {
                subject.onComplete(immediateExecutionContext) { _ in
                    subject.onComplete(immediateExecutionContext) { _ in nested.increment() }
                    subject.complete()
                    _ = subject.completeAgain(99)
                    _ = subject.cell?.forced()
                }
                subject.complete()
            }
            #expect(nested.value == 1)
        }
    }
}
