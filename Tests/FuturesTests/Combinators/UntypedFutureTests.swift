import Dispatch
import Testing

@testable import Futures

enum ParseError: Error, Equatable {
    case notANumber(String)
}

func parse(_ text: String) throws -> Int {
    guard let value = Int(text) else { throw ParseError.notANumber(text) }
    return value
}

let immediate = immediateExecutionContext

@Suite("Untyped futures: SimpleFutures' throwing combinators beside BrightFutures' forms")
struct UntypedFutureTests {
    @Test func bothStylesCompileAndPickTheRightForm() {
        DefaultExecutionContext.withDefault(immediate) {
            let f = Future<String, any Error>(value: "41")
            let token = CancelToken()
            // BrightFutures' form: non-throwing closure, unlabelled.
            let count: Future<Int, any Error> = f.map { $0.count }
            // SimpleFutures' form: a throwing closure can only pick it.
            let parsed = f.map { try parse($0) }
            // Labelled SimpleFutures form.
            let labelled = parsed.map(context: immediate, cancelToken: token) { $0 + 1 }
            // BrightFutures' context-first form still compiles.
            let bright = parsed.map(immediate) { $0 * 2 }
            #expect(count.value == 2)
            #expect(parsed.value == 41)
            #expect(labelled.value == 42)
            #expect(bright.value == 82)
        }
    }

    @Test func unlabelledNonThrowingCallsPickBrightFuturesForms() {
        DefaultExecutionContext.withDefault(immediate) {
            let failed = Future<Int, any Error>(error: ParseError.notANumber("x"))
            // BrightFutures' recover(context:task:) gives a future that cannot fail …
            let recovered = failed.recover { _ in 0 }
            #expect(staticType(of: recovered) == Future<Int, Never>.self)
            #expect(recovered.value == 0)
            // … a throwing closure reaches SimpleFutures' recover, which can.
            let rethrown = failed.recover { error -> Int in throw error }
            #expect(staticType(of: rethrown) == Future<Int, any Error>.self)
            // andThen: a body that compiles for both gets BrightFutures' Result …
            let seen = Recorder<String>()
            _ = Future<Int, any Error>(value: 1).andThen { seen.append("\($0)") }
            // … and `cancelToken:` selects SimpleFutures' value form.
            _ = Future<Int, any Error>(value: 1).andThen(cancelToken: CancelToken()) { seen.append("\($0)") }
            #expect(seen.values == ["success(1)", "1"])
            // Collections: unlabelled `sequence()` and `traverse` are BrightFutures', with the same results.
            let futures = [1, 2].map { Future<Int, any Error>(value: $0) }
            #expect(futures.sequence().value == [1, 2])
            #expect([1, 2].traverse(immediate) { Future<Int, any Error>(value: $0 * 2) }.value == [2, 4])
            #expect(futures.sequence(context: immediate).value == [1, 2])
            #expect([1, 2].traverse(context: immediate) { Future<Int, any Error>(value: $0 * 3) }.value == [3, 6])
        }
    }

    @Test func mapThatThrowsFailsTheFuture() {
        let mapped = Future<String, any Error>(value: "x").map(context: immediate) { try parse($0) }
        #expect(mapped.error as? ParseError == .notANumber("x"))
    }

    @Test func mapSkipsFailures() {
        let ran = Counter()
        let mapped = Future<Int, any Error>(error: ParseError.notANumber("a")).map(context: immediate) { value -> Int in
            ran.increment()
            return value
        }
        #expect(mapped.error as? ParseError == .notANumber("a"))
        #expect(ran.value == 0)
    }

    @Test func mapOnAPendingFutureRunsAtCompletion() {
        let promise = Promise<Int, any Error>()
        let mapped = promise.future.map(context: immediate) { try parse("\($0)") + 1 }
        #expect(!mapped.isCompleted)
        promise.success(1)
        #expect(mapped.value == 2)
    }

    @Test func flatMapChainsThrowingSteps() {
        let promise = Promise<Int, any Error>()
        let chained = promise.future.flatMap(context: immediate) { value -> Future<String, any Error> in
            guard value > 0 else { throw ParseError.notANumber("\(value)") }
            return Future(value: "\(value)")
        }
        promise.success(5)
        #expect(chained.value == "5")
        let failing = Future<Int, any Error>(value: -1).flatMap(context: immediate) {
            value -> Future<String, any Error> in
            guard value > 0 else { throw ParseError.notANumber("\(value)") }
            return Future(value: "\(value)")
        }
        #expect(failing.error as? ParseError == .notANumber("-1"))
        let upstream = Future<Int, any Error>(error: ParseError.notANumber("u"))
            .flatMap(context: immediate) { Future<Int, any Error>(value: $0) }
        #expect(upstream.error as? ParseError == .notANumber("u"))
    }

    @Test func withFilterKeepsAcceptedValuesAndFailsWithNoSuchElement() {
        let kept = Future<Int, any Error>(value: 3).withFilter(context: immediate) { $0 > 0 }
        #expect(kept.value == 3)
        let rejected = Future<Int, any Error>(value: -3).withFilter(context: immediate) { $0 > 0 }
        #expect(rejected.error as? FuturesError == .noSuchElement)
        let thrown = Future<Int, any Error>(value: 3).withFilter(context: immediate) { _ in
            throw ParseError.notANumber("f")
        }
        #expect(thrown.error as? ParseError == .notANumber("f"))
        let failed = Future<Int, any Error>(error: ParseError.notANumber("u")).withFilter(context: immediate) { _ in
            true
        }
        #expect(failed.error as? ParseError == .notANumber("u"))
    }

    @Test func forEachRunsOnlyOnSuccess() {
        let seen = Recorder<Int>()
        Future<Int, any Error>(value: 7).forEach(context: immediate) { seen.append($0) }
        Future<Int, any Error>(error: ParseError.notANumber("x")).forEach(context: immediate) { seen.append($0) }
        #expect(seen.values == [7])
    }

    @Test func andThenPassesTheValueAndKeepsTheResult() {
        let seen = Recorder<Int>()
        let promise = Promise<Int, any Error>()
        let next = promise.future.andThen(context: immediate, cancelToken: CancelToken()) { seen.append($0 * 10) }
        promise.success(4)
        #expect(seen.values == [40])
        #expect(next.value == 4)
        // A body that only compiles with a value picks SimpleFutures' form even unlabelled.
        let total = Counter()
        let unlabelled = DefaultExecutionContext.withDefault(immediate) {
            Future<Int, any Error>(value: 2).andThen { value in total.increment(by: value) }
        }
        #expect(total.value == 2 && unlabelled.value == 2)
        // BrightFutures' form wins when the closure takes a Result.
        let brightSeen = Recorder<Bool>()
        let bright = Future<Int, any Error>(value: 1).andThen(context: immediate) { (result: Result<Int, any Error>) in
            brightSeen.append((try? result.get()) == 1)
        }
        #expect(brightSeen.values == [true] && bright.value == 1)
    }

    @Test func recoverReplacesAFailureAndMayRethrow() {
        let recovered = Future<Int, any Error>(error: ParseError.notANumber("r")).recover(context: immediate) { _ in 0 }
        #expect(recovered.value == 0)
        let rethrown = Future<Int, any Error>(error: FuturesError.timedOut).recover(context: immediate) {
            error -> Int in
            guard error is ParseError else { throw error }
            return 0
        }
        #expect(rethrown.error as? FuturesError == .timedOut)
        let untouched = Future<Int, any Error>(value: 9).recover(context: immediate) { _ in 0 }
        #expect(untouched.value == 9)
        // Unlabelled, non-throwing: BrightFutures' `recover(context:task:)` may win (a `Future<Int, Never>`);
        // a throwing closure always reaches this one.
        let throwing = DefaultExecutionContext.withDefault(immediate) {
            Future<Int, any Error>(error: FuturesError.timedOut).recover { error -> Int in throw error }
        }
        #expect(throwing.error as? FuturesError == .timedOut)
    }

    @Test func recoverWithContinuesWithAnotherFuture() {
        let recovered = Future<Int, any Error>(error: ParseError.notANumber("r"))
            .recoverWith(context: immediate) { _ in Future<Int, any Error>(value: 1) }
        #expect(recovered.value == 1)
        let thrown = Future<Int, any Error>(error: ParseError.notANumber("r"))
            .recoverWith(context: immediate) { error -> Future<Int, any Error> in throw FuturesError.timedOut }
        #expect(thrown.error as? FuturesError == .timedOut)
        let untouched = Future<Int, any Error>(value: 3).recoverWith(context: immediate) { _ in Future(value: 1) }
        #expect(untouched.value == 3)
    }

    @Test func mapErrorTransformsOnlyTheError() {
        let mapped = Future<Int, any Error>(error: ParseError.notANumber("e"))
            .mapError(context: immediate) { _ in FuturesError.noSuchElement }
        #expect(mapped.error as? FuturesError == .noSuchElement)
        let untouched = Future<Int, any Error>(value: 1).mapError(context: immediate) { _ in FuturesError.noSuchElement
        }
        #expect(untouched.value == 1)
        // Unlabelled: BrightFutures' generic mapError still wins and keeps the concrete type.
        let typed: Future<Int, FuturesError> = DefaultExecutionContext.withDefault(immediate) {
            Future<Int, any Error>(error: ParseError.notANumber("e")).mapError { _ in FuturesError.cancelled }
        }
        #expect(typed.error == .cancelled)
    }

    @Test func dependentInitAndPromiseCompleteWithTakeAnotherFuturesResult() {
        let source = Promise<Int, any Error>()
        let dependent = Future(context: immediate, dependent: source.future)
        let promise = Promise<Int, any Error>()
        promise.completeWith(context: immediate, future: source.future)
        source.success(8)
        #expect(dependent.value == 8)
        #expect(promise.future.value == 8)
    }

    @Test func combinatorsRunOnTheirContext() async throws {
        let queue = DispatchQueue(label: "untyped.context")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let mapped = Future<Int, any Error>(value: 1).map(context: ExecutionContext(queue: queue)) { value -> Bool in
            DispatchQueue.getSpecific(key: key) == 1 && value == 1
        }
        #expect(try await mapped.get())
    }
}

/// The static type of `value`: which overload a call picked (the dynamic type may be an internal subclass).
private func staticType<T>(of _: T) -> T.Type { T.self }
