import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

/// A recursion of continuations on the immediate executor, each returning the next task.
private func downTask(_ n: Int) -> BFTask<Int> {
    n == 0
        ? BFTask(result: 0)
        : BFTask(result: n).continueOnSuccessWithTask(executor: .immediate) { (succeeded: BFTask<Int>) -> BFTask<Int> in
            let value = succeeded.result!
            return downTask(value - 1)
        }
}

extension Guarantees {
    /// G5. Stack-safe at any depth: a million steps in bounded stack in a Swift `Task`, on a Dispatch queue and on
    /// a plain thread; dropping a pending chain of any length frees it without recursion.
    @Suite("G5 Stack-safe at any depth")
    struct G5StackSafetyTests {
        static let deep = heavyTestDepth

        @Test(arguments: GRunner.allCases)
        func aDeepChainOfImmediateContinuationsOnAPendingTaskCompletes(_ runner: GRunner) async {
            let result = await runner.run { () -> Int? in
                let source = BFTaskCompletionSource<Int>()
                var last = source.task
                for _ in 0..<Self.deep {
                    last = last.continueWith(executor: .immediate) { (task: BFTask<Int>) -> Int in task.result! + 1 }
                }
                source.set(result: 0)
                return last.result
            }
            #expect(result == Self.deep)
        }

        @Test(arguments: GRunner.allCases)
        func aDeepContinuationRecursionReturnsSynchronously(_ runner: GRunner) async {
            let result = await runner.run { downTask(Self.deep).result }
            #expect(result == 0)
        }
    }
}
