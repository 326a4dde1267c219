import Dispatch
import Testing

@testable import Futures

@Suite("Future(operation:): async work that cancellation reaches")
struct FutureOperationTests {
    struct Boom: Error, Equatable {}

    @Test func anOperationCompletesTheFutureWithItsValueOrError() async throws {
        let value = Future { () async throws -> Int in 42 }
        #expect(try await value.get() == 42)
        let failure = Future { () async throws -> Int in throw Boom() }
        await #expect(throws: Boom.self) { try await failure.get() }
        let typed = Future { () async throws(Boom) -> Int in throw Boom() }
        await #expect(throws: Boom.self) { try await typed.get() }
    }

    @Test func theErrorTypeFollowsTheClosuresTypedThrows() async {
        let neverFails = Future { 7 }
        let anyError = Future { () async throws in 7 }
        let typed = Future { () async throws(Boom) in 7 }
        // `Future<Int, Never>.get()` does not throw: no `try` needed.
        #expect(await neverFails.get() == 7)
        #expect(type(of: neverFails) == Future<Int, Never>.self)
        #expect(type(of: anyError) == Future<Int, any Error>.self)
        #expect(type(of: typed) == Future<Int, Boom>.self)
    }

    @Test func closureArityTellsTheOperationFromTheResolver() {
        let resolved = Future<Int, Never> { complete in complete(.success(1)) }
        #expect(resolved.value == 1, "a one-argument closure is still the resolver, run synchronously")
    }

    @Test func anAsyncOperationObservesTaskIsCancelledAfterTheTokenFires() async {
        let source = CancellationSource()
        let started = Promise<Void, Never>()
        let observed = Promise<Bool, Never>()
        let future = Future { () async throws -> Int in
            started.success(())
            do {
                // Work that only ends when the task is cancelled: waits on a future that never completes.
                _ = try await Future<Int, Never>().get(onTaskCancellation: .stopWaiting)
            } catch {
                observed.success(Task.isCancelled)
                throw error
            }
            return 1
        }.requestCancellation(when: source.token)
        await started.future.get()
        source.cancel()
        #expect(await observed.future.get(), "the operation saw Task.isCancelled")
        await #expect(throws: CancellationError.self) { try await future.get() }
    }

    @Test func aCancellationRequestCancelsTheSwiftTaskOnce() async {
        let started = Promise<Void, Never>()
        let handlerRuns = Counter()
        let future = Future { () async -> String in
            started.success(())
            await withTaskCancellationHandler {
                _ = try? await Future<Int, Never>().get(onTaskCancellation: .stopWaiting)
            } onCancel: {
                handlerRuns.increment()
            }
            return "stopped early"
        }
        await started.future.get()
        future.requestCancellation()
        future.requestCancellation()
        #expect(await future.get() == "stopped early", "with E == Never the operation decides the value")
        #expect(handlerRuns.value == 1)
    }

    @Test func aCancelledOperationReleasesWhatItCaptured() async {
        weak var weakResource: Resource?
        let started = Promise<Void, Never>()
        let future: Future<Int, any Error>
        do {
            let resource = Resource()
            weakResource = resource
            future = Future { () async throws -> Int in
                _ = resource
                started.success(())
                return try await Future<Int, Never>().get(onTaskCancellation: .stopWaiting)
            }
        }
        await started.future.get()
        future.requestCancellation()
        await #expect(throws: CancellationError.self) { try await future.get() }
        // The Swift task lets go of its closure just after completing the future: give it its turn.
        var turns = 0
        while weakResource != nil && turns < 100_000 {
            await Task.yield()
            turns += 1
        }
        #expect(weakResource == nil)
        #expect(storedEntryCount(future) == 0, "the cancellation handler (the task handle) was dropped")
    }

    @Test func aRequestAfterCompletionDoesNothing() async {
        let future = Future { 1 }
        #expect(await future.get() == 1)
        future.requestCancellation()
        #expect(!future.isCancellationRequested && future.value == 1)
    }
}

@Suite("get() and Swift task cancellation")
struct GetCancellationTests {
    /// Waits (by yielding, never sleeping) until `future` holds `count` entries.
    func waitForEntries<T, E>(_ future: Future<T, E>, _ count: Int) async {
        while storedEntryCount(future) != count { await Task.yield() }
    }

    @Test func plainGetKeepsWaitingInACancelledTask() async {
        let promise = Promise<Int, Never>()
        let waiter = Task { await promise.future.get() }
        await waitForEntries(promise.future, 1)
        waiter.cancel()
        #expect(!promise.isCancellationRequested, "the future is not touched")
        promise.success(5)
        #expect(await waiter.value == 5)
    }

    @Test func stopWaitingThrowsCancellationErrorAndLeavesNothingBehind() async {
        let promise = Promise<Int, Never>()
        let waiter = Task { try await promise.future.get(onTaskCancellation: .stopWaiting) }
        await waitForEntries(promise.future, 1)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(storedEntryCount(promise.future) == 0, "the waiter was taken out of the future")
        #expect(!promise.isCancellationRequested && !promise.future.isCompleted)
        promise.success(1)
    }

    @Test func stopWaitingInAnAlreadyCancelledTaskThrowsAtOnceUnlessTheResultIsThere() async {
        let pending = Future<Int, Never>()
        let completed = Future<Int, Never>(value: 3)
        let outcome = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let value = try? await completed.get(onTaskCancellation: .stopWaiting)
            do {
                _ = try await pending.get(onTaskCancellation: .stopWaiting)
                return (value, false)
            } catch {
                return (value, error is CancellationError)
            }
        }
        let (value, threw) = await outcome.value
        #expect(value == 3 && threw)
        #expect(storedEntryCount(pending) == 0)
    }

    @Test func stopWaitingReturnsTheResultWhenTheFutureWins() async throws {
        let promise = Promise<Int, Never>()
        let waiter = Task { try await promise.future.get(onTaskCancellation: .stopWaiting) }
        await waitForEntries(promise.future, 1)
        promise.success(9)
        #expect(try await waiter.value == 9)
        waiter.cancel()
    }

    @Test func manyCancelledWaitersRacingCompletionEachResumeOnce() async {
        for _ in 0..<50 {
            let promise = Promise<Int, Never>()
            let waiters = (0..<8).map { _ in
                Task { try? await promise.future.get(onTaskCancellation: .stopWaiting) }
            }
            for (index, waiter) in waiters.enumerated() where index % 2 == 0 { waiter.cancel() }
            promise.success(1)
            for waiter in waiters {
                let value = await waiter.value
                #expect(value == nil || value == 1)
            }
            #expect(storedEntryCount(promise.future) == 0)
        }
    }

    @Test func requestCancellationPassesTheTaskCancellationToTheProducer() async {
        let promise = Promise<Int, any Error>()
        promise.onCancellationRequested { promise.failure(FuturesError.cancelled) }
        let waiter = Task { try await promise.future.get(onTaskCancellation: .requestCancellation) }
        await waitForEntries(promise.future, 2)
        waiter.cancel()
        await #expect(throws: FuturesError.cancelled) { try await waiter.value }
        #expect(promise.isCancellationRequested)
    }

    @Test func requestCancellationOnAnOperationFutureEndsTheOperation() async {
        let started = Promise<Void, Never>()
        let operation = Future { () async throws -> Int in
            started.success(())
            return try await Future<Int, Never>().get(onTaskCancellation: .stopWaiting)
        }
        let waiter = Task { try await operation.get(onTaskCancellation: .requestCancellation) }
        await started.future.get()
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func keepWaitingBehavesAsGet() async throws {
        let promise = Promise<Int, any Error>()
        let waiter = Task { try await promise.future.get(onTaskCancellation: .keepWaiting) }
        await waitForEntries(promise.future, 1)
        waiter.cancel()
        promise.success(4)
        #expect(try await waiter.value == 4)
    }
}
