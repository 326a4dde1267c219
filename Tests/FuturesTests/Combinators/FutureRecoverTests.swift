import Dispatch
import Testing

@testable import Futures

private enum ReadmeError: Error {
    case requestFailed
}

@Suite("recover and recoverWith")
struct FutureRecoverTests {
    @Test func recoverReplacesAFailureWithTheTasksValue() {
        let recovered = Future<Int, ComboError>(error: .first).recover(context: immediateExecutionContext) { error in
            error == .first ? 5 : 0
        }
        #expect(recovered.value == 5)
    }

    @Test func recoverPassesASuccessThroughWithoutRunningTheTask() {
        let runs = Counter()
        let recovered = Future<Int, ComboError>(value: 10).recover(context: immediateExecutionContext) { _ in
            runs.increment()
            return 5
        }
        #expect(recovered.value == 10)
        #expect(runs.value == 0)
    }

    @Test func recoverRunsTheTaskOnTheGivenContextOnceTheFutureFails() {
        let promise = Promise<Int, ComboError>()
        let hops = Counter()
        let recovered = promise.future.recover(context: countingContext(hops)) { _ in 7 }
        #expect(!recovered.isCompleted && hops.value == 0)
        promise.failure(.second)
        #expect(recovered.value == 7)
        #expect(hops.value == 1)
    }

    @Test func recoverUsesTheDefaultContextWhenOmitted() {
        let recovered = DefaultExecutionContext.withDefault(immediateExecutionContext) {
            Future<Int, ComboError>(error: .first).recover { _ in 5 }
        }
        #expect(recovered.value == 5)
    }

    @Test func recoverWithContinuesWithTheTasksFutureAndItsErrorType() {
        let promise = Promise<String, ComboError>()
        let recovered: Future<String, Never> = Future<String, ComboError>(error: .first)
            .recoverWith(context: immediateExecutionContext) { _ in
                promise.future.recover(context: immediateExecutionContext) { _ in "fallback" }
            }
        #expect(!recovered.isCompleted)
        promise.success("second try")
        #expect(recovered.value == "second try")
    }

    @Test func recoverWithFailsWithTheTasksFuturesError() {
        let recovered = Future<Int, ComboError>(error: .first).recoverWith(context: immediateExecutionContext) { _ in
            Future<Int, ComboError>(error: .second)
        }
        #expect(recovered.error == .second)
    }

    @Test func recoverWithPassesASuccessThrough() {
        let runs = Counter()
        let recovered = Future<Int, ComboError>(value: 1).recoverWith(context: immediateExecutionContext) {
            _ -> Future<Int, Never> in
            runs.increment()
            return Future(value: 2)
        }
        #expect(recovered.value == 1 && runs.value == 0)
    }

    @Test func recoverWithUsesTheDefaultContextWhenOmitted() async {
        let recovered = Future<Int, ComboError>(error: .first).recoverWith { _ in Future<Int, Never>(value: 4) }
        #expect(await recovered.get() == 4)
    }

    @Test func aLongRecoverWithChainCompletesWithoutStackOverflow() {
        let promise = Promise<Int, ComboError>()
        var chain = promise.future
        for _ in 0..<100_000 {
            chain = chain.recoverWith(context: immediateExecutionContext) { _ in Future<Int, ComboError>(error: .second)
            }
        }
        let last = chain.recover(context: immediateExecutionContext) { _ in 42 }
        promise.failure(.first)
        #expect(last.value == 42)
    }

    @Test func nestedRecoverWithOnPendingFuturesCompletesWithoutStackOverflow() {
        let promises = (0..<100_000).map { _ in Promise<Int, ComboError>() }
        var chain = Future<Int, ComboError>(error: .first)
        for promise in promises {
            chain = chain.recoverWith(context: immediateExecutionContext) { _ in promise.future }
        }
        #expect(!chain.isCompleted)
        // Only the last promise's result matters once every earlier one has failed.
        for promise in promises.dropLast() { promise.failure(.first) }
        promises.last!.success(9)
        #expect(chain.value == 9)
    }

    @Test func recoverReleasesItsTaskOnceItRan() {
        final class Payload: Sendable {}
        weak var weakPayload: Payload?
        let promise = Promise<Int, ComboError>()
        var recovered: Future<Int, Never>?
        do {
            let payload = Payload()
            weakPayload = payload
            recovered = promise.future.recover(context: immediateExecutionContext) { _ in
                withExtendedLifetime(payload) { 1 }
            }
        }
        #expect(weakPayload != nil)
        promise.failure(.first)
        #expect(recovered?.value == 1)
        #expect(weakPayload == nil)
    }
}

/// The context comes first and unlabelled, as for `map` and `flatMap`; BrightFutures' `context:` label
/// still names the same methods.
extension FutureRecoverTests {
    @Test func recoverTakesTheContextUnlabelledAsMapDoes() {
        let hops = Counter()
        let context = countingContext(hops)
        let mapped = Future<Int, ComboError>(value: 1).map(context) { $0 + 1 }
        let recovered = Future<Int, ComboError>(error: .first).recover(context) { _ in 5 }
        #expect(mapped.value == 2)
        #expect(recovered.value == 5)
        #expect(hops.value == 2)
    }

    @Test func recoverWithTakesTheContextUnlabelled() {
        let hops = Counter()
        let recovered = Future<Int, ComboError>(error: .first).recoverWith(countingContext(hops)) { _ in
            Future<Int, Never>(value: 4)
        }
        #expect(recovered.value == 4)
        #expect(hops.value == 1)
    }

    /// BrightFutures' spelling, the context labelled, runs on the context it names, as the unlabelled one.
    @Test func brightFuturesLabelledSpellingIsTheSameMethod() {
        let hops = Counter()
        let failed = Future<Int, ComboError>(error: .first)
        let values = [
            failed.recover(countingContext(hops)) { _ in 1 }.value,
            failed.recover(context: countingContext(hops)) { _ in 2 }.value,
            failed.recoverWith(countingContext(hops)) { _ in Future<Int, Never>(value: 3) }.value,
            failed.recoverWith(context: countingContext(hops)) { _ in Future<Int, Never>(value: 4) }.value,
        ]
        #expect(values == [1, 2, 3, 4])
        #expect(hops.value == 4)
    }

    /// `andThen` takes its context the same way: unlabelled, or with BrightFutures' label.
    @Test func andThenTakesTheContextUnlabelledOrLabelled() {
        let hops = Counter()
        let seen = Counter()
        let future = Future<Int, ComboError>(value: 7)
        let chained = [
            future.andThen(countingContext(hops)) { _ in seen.increment() },
            future.andThen(context: countingContext(hops)) { _ in seen.increment() },
        ]
        #expect(chained.map(\.value) == [7, 7])
        #expect(hops.value == 2)
        #expect(seen.value == 2)
    }

    /// The examples of `recover`'s and `recoverWith`'s documentation.
    @Test func theDocumentedUnlabelledContextExamples() async {
        let queue = DispatchQueue(label: "recover.example")
        let recovered = Future<Int, ReadmeError>(error: .requestFailed).recover(queue.context) { _ in 5 }
        #expect(await recovered.get() == 5)
        do {
            let recovered = Future<Int, ReadmeError>(error: .requestFailed)
                .recoverWith(queue.context) { _ in Future<Int, ReadmeError>(value: 5) }
            #expect(try await recovered.get() == 5)
        } catch {
            Issue.record("failed with \(error)")
        }
    }
}
