import BrightFutures
import Dispatch
import Futures
import Testing

/// Marks the main queue, so a task can tell that it runs there.
private let mainQueueKey = DispatchSpecificKey<String>()

/// Calls BrightFutures' deprecated names through a protocol, so the test target builds without warnings.
private protocol DeprecatedContextUses: Sendable {
    func immediateRunsInline() -> Bool
    func immediateIsTheCoresImmediateContext() -> Bool
    func maxStackDepthRunsInline() -> Bool
    func immediateOnMainRunsOnMain() async -> Bool
    func threadingModelIsTheDefaultContext() -> Bool
}

private struct OldSpellings: DeprecatedContextUses {
    @available(*, deprecated)
    func immediateRunsInline() -> Bool {
        let ran = Counter()
        Future<Int, Never>(value: 1).onSuccess(ImmediateExecutionContext) { _ in ran.increment() }
        return ran.value == 1
    }

    /// The old name reads the same function as the new one, so the core recognises it as its immediate
    /// context (no custom context, the completed-future path of every combinator).
    @available(*, deprecated)
    func immediateIsTheCoresImmediateContext() -> Bool {
        Futures.ExecutionContext(ImmediateExecutionContext).isImmediate
    }

    @available(*, deprecated)
    func maxStackDepthRunsInline() -> Bool {
        let ran = Counter()
        MaxStackDepthExecutionContext { ran.increment() }
        return ran.value == 1
    }

    @available(*, deprecated)
    func immediateOnMainRunsOnMain() async -> Bool {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: "main")
        let ranOn = Promise<String?, Never>()
        Future<Int, Never>(value: 1).onSuccess(ImmediateOnMainExecutionContext) { _ in
            ranOn.success(DispatchQueue.getSpecific(key: mainQueueKey))
        }
        return await ranOn.future.get() == "main"
    }

    @available(*, deprecated)
    func threadingModelIsTheDefaultContext() -> Bool {
        let ran = Counter()
        DefaultExecutionContext.withDefault(Futures.immediateExecutionContext) {
            DefaultThreadingModel()({ ran.increment() })
        }
        return ran.value == 1
    }
}

/// BrightFutures' pre-4.0 names of the contexts, deprecated as in BrightFutures, behave as the names they
/// were renamed to.
@Suite("BrightFutures module: deprecated names")
struct DeprecatedNamesTests {
    @Test func deprecatedContextNamesBehaveAsTheirNewNames() async {
        let uses: any DeprecatedContextUses = OldSpellings()
        #expect(uses.immediateRunsInline())
        #expect(uses.immediateIsTheCoresImmediateContext())
        #expect(uses.maxStackDepthRunsInline())
        #expect(await uses.immediateOnMainRunsOnMain())
        #expect(uses.threadingModelIsTheDefaultContext())
    }
}
