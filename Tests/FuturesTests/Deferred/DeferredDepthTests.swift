import Testing

@testable import Futures

/// Recursion through `flatMap`: each level continues a `unit` with the next level.
private func down(_ n: Int) -> Deferred<Int, Never> {
    if n == 0 { return .unit(0) }
    return Deferred<Int, Never>.unit(n).flatMap { down($0 - 1) }
}

/// Recursion through `run()` inside `Deferred(starting:)`: each execution starts the next one.
private func downStarting(_ n: Int) -> Deferred<Int, Never> {
    Deferred(starting: {
        n == 0 ? Future(value: 0) : downStarting(n - 1).run()
    })
}

/// Recursion through `run()` inside a trunk: each trunk executes the next level and completes with it.
private func downTrunk(_ n: Int) -> Deferred<Int, Never> {
    Deferred { complete in
        if n == 0 {
            complete(.success(0))
        } else {
            downTrunk(n - 1).execute(callback: complete)
        }
    }
}

@Suite("Deferred: a million steps in bounded stack", .serialized, .hangGuard(minutes: 5))
struct DeferredDepthTests {
    static let depth = testDepth

    @Test(arguments: StackKind.allCases)
    func aMillionFlatMapsRun(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            var chain = Deferred<Int, Never>.unit(0)
            for _ in 0..<Self.depth {
                chain = chain.flatMap { .unit($0 + 1) }
            }
            return chain.run().value
        }
        #expect(result == Self.depth)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionFlatMapsOverAPendingTrunkRun(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            let gate = Promise<Int, Never>()
            var chain = Deferred<Int, Never>(starting: { gate.future })
            for _ in 0..<Self.depth {
                chain = chain.flatMap { .unit($0 + 1) }
            }
            let running = chain.run()
            gate.success(0)
            return running.value
        }
        #expect(result == Self.depth)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionDeepRecursionThroughFlatMap(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            down(Self.depth).run().value
        }
        #expect(result == 0)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionDeepRecursionThroughRunInsideStarting(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            downStarting(Self.depth).run().value
        }
        #expect(result == 0)
    }

    @Test(arguments: StackKind.allCases)
    func aMillionDeepRecursionThroughExecuteInsideATrunk(on stack: StackKind) async {
        let result = await stack.run { () -> Int? in
            downTrunk(Self.depth).run().value
        }
        #expect(result == 0)
    }

    @Test func aRequestOnAQueuedStartReachesTheFutureItStarts() {
        // Deep enough that the innermost `makeFuture` is queued on the trampoline behind a stand-in.
        let requested = Counter()
        let innermost = Deferred<Int, any Error>(starting: {
            let promise = Promise<Int, any Error>()
            promise.future.onCancellationRequested {
                requested.increment()
                promise.failure(FuturesError.cancelled)
            }
            return promise.future
        })
        var chain = innermost
        for _ in 0..<200 {
            let inner = chain
            chain = Deferred(starting: { inner.run() })
        }
        let running = chain.run()
        running.requestCancellation()
        #expect(requested.value == 1)
        #expect(running.error as? FuturesError == .cancelled)
    }
}
