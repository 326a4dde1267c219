import BrightFutures
import Dispatch
import FuturesTestSupport
import Testing

@testable import Futures

/// Returns `value` after passing it through a generic parameter: Swift re-abstracts a function handed to
/// a generic parameter, so the function that comes back is another function value that does the same.
private func throughGeneric<Value>(_ value: Value) -> Value {
    value
}

@Suite("BrightFutures' function contexts", .hangGuard())
struct ExecutionContextTests {
    @Test("the face's BrightFutures.immediateExecutionContext is the core's immediate context, not a custom one")
    func theImmediateFunctionIsTheCoresImmediateContext() {
        #expect(Futures.ExecutionContext(BrightFutures.immediateExecutionContext).isImmediate)
        let copy = BrightFutures.immediateExecutionContext
        #expect(Futures.ExecutionContext(copy).isImmediate)
    }

    @Test("a function of your own that runs its task at once is a custom context, and runs its tasks")
    func aFunctionOfYourOwnIsCustom() {
        let ran = Counter()
        let own: BrightFutures.ExecutionContext = { task in
            ran.increment()
            task()
        }
        #expect(!Futures.ExecutionContext(own).isImmediate)
        let value = Future<Int, Never>(value: 1).map(own) { $0 + 1 }.value
        #expect(value == 2 && ran.value == 1)
    }

    @Test(
        "a re-abstracted copy of BrightFutures.immediateExecutionContext loses only the recognition: it still runs at once"
    )
    func aReabstractedCopyStillRuns() {
        let copy: BrightFutures.ExecutionContext = throughGeneric(BrightFutures.immediateExecutionContext)
        #expect(!Futures.ExecutionContext(copy).isImmediate)
        let ran = Counter()
        Future<Int, Never>(value: 1).onSuccess(copy) { _ in ran.increment() }
        #expect(ran.value == 1)
    }

    @Test("on a completed future, BrightFutures.immediateExecutionContext runs the step at once, on the calling thread")
    func completedFutureRunsAtOnce() {
        let here = Trampoline.threadIdentity
        let ranOn = Recorder<UInt>()
        let mapped = Future<Int, Never>(value: 1).map(BrightFutures.immediateExecutionContext) { value -> Int in
            ranOn.append(Trampoline.threadIdentity)
            return value + 1
        }
        #expect(mapped.value == 2)
        #expect(ranOn.values == [here])
    }

    @Test(
        "on a pending future, BrightFutures.immediateExecutionContext runs the step at completion, on the completing thread"
    )
    func pendingFutureRunsAtCompletion() async {
        let promise = Promise<Int, Never>()
        let ranOn = Recorder<UInt>()
        let mapped = promise.future.map(BrightFutures.immediateExecutionContext) { value -> Int in
            ranOn.append(Trampoline.threadIdentity)
            return value + 1
        }
        #expect(ranOn.values.isEmpty)
        let completer = Promise<UInt, Never>()
        DispatchQueue.global().async {
            completer.success(Trampoline.threadIdentity)
            promise.success(1)
        }
        #expect(await mapped.get() == 2)
        #expect(ranOn.values == [await completer.future.get()])
    }

    @Test(
        "a chain of a million steps on immediateExecutionContext completes, pending and completed",
        arguments: StackKind.allCases)
    func deepChainsOnTheImmediateFunction(on stack: StackKind) async {
        let depth = testDepth
        let values = await stack.run { () -> [Int?] in
            [false, true].map { completed in
                let promise = Promise<Int, Never>()
                if completed { promise.success(0) }
                var last = promise.future
                for _ in 0..<depth { last = last.map(BrightFutures.immediateExecutionContext) { $0 + 1 } }
                if !completed { promise.success(0) }
                return last.value
            }
        }
        #expect(values == [depth, depth])
    }
}
