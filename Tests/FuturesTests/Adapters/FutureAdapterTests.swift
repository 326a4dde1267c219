import Dispatch
import Testing

@testable import Futures

/// A callback-based API, as old code has them.
final class AsyncRequester: Sendable {
    let value: Int?
    let error: (any Error)?
    init(value: Int?, error: (any Error)?) {
        self.value = value
        self.error = error
    }
    func request(completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
        completion(value, error)
    }
}

@Suite("Adapters: future(_:), future(context:_:), future(method:), futureStream")
struct FutureAdapterTests {
    @Test func anAutoclosureFutureIsCompletedAtOnce() {
        let counter = Counter()
        let answer = future(counter.increment(by: 42))
        #expect(answer.value == 42 && counter.value == 42)
    }

    @Test func aTaskFutureRunsOnItsContextAndCapturesThrows() async throws {
        let value = future(context: ExecutionContext(queue: .global())) { 6 * 7 }
        #expect(try await value.get() == 42)
        let failed = future(context: immediate) { () throws -> Int in throw ParseError.notANumber("t") }
        #expect(failed.error as? ParseError == .notANumber("t"))
    }

    @Test func optionalValueAndErrorShapes() {
        let value: Future<Int, any Error> = future(method: AsyncRequester(value: 1, error: nil).request)
        #expect(value.value == 1)
        let error: Future<Int, any Error> = future(
            method: AsyncRequester(value: nil, error: FuturesError.timedOut).request)
        #expect(error.error as? FuturesError == .timedOut)
        let neither: Future<Int, any Error> = future(method: AsyncRequester(value: nil, error: nil).request)
        #expect(neither.error as? FuturesError == .invalidValue)
        let both: Future<Int, any Error> = future(
            method: AsyncRequester(value: 2, error: FuturesError.timedOut).request)
        #expect(both.value == 2)  // SimpleFutures' rule: a value wins
    }

    @Test func askingForTheOptionalTypeKeepsNilAsAValue() {
        let neither: Future<Int?, any Error> = future(method: AsyncRequester(value: nil, error: nil).request)
        #expect(neither.isSuccess && neither.value! == nil)
        let error: Future<Int?, any Error> = future(
            method: AsyncRequester(value: 3, error: FuturesError.timedOut).request)
        #expect(error.error as? FuturesError == .timedOut)
    }

    @Test func errorOnlyAndValueOnlyShapes() {
        func save(_ completion: @escaping @Sendable ((any Error)?) -> Void) { completion(nil) }
        func fail(_ completion: @escaping @Sendable ((any Error)?) -> Void) { completion(FuturesError.timedOut) }
        func count(_ completion: @escaping @Sendable (Int) -> Void) { completion(3) }
        let saved: Future<Void, any Error> = future(method: save)
        let failed = future(method: fail)
        let counted = future(method: count)
        #expect(saved.isSuccess)
        #expect(failed.error as? FuturesError == .timedOut)
        #expect(counted.value == 3)
    }

    @Test func aCallbackCalledTwiceKeepsTheFirstResultAndIsReported() {
        let reports = Recorder<FuturesDiagnostic>()
        let twice = FuturesDiagnostics.withHandler({ reports.append($0) }) {
            future(method: { (completion: @escaping @Sendable (Int?, (any Error)?) -> Void) in
                completion(1, nil)
                completion(nil, FuturesError.timedOut)
            })
        }
        #expect(twice.value == 1)
        #expect(reports.values.count == 1)
        if case .futureCompletedTwice = reports.values.first {
        } else {
            Issue.record("expected futureCompletedTwice, got \(reports.values)")
        }
    }

    @Test func aCallbackFromAnotherThreadCompletesTheFuture() async throws {
        let result: Future<Int, any Error> = future(method: {
            (completion: @escaping @Sendable (Int?, (any Error)?) -> Void) in
            DispatchQueue.global().async { completion(5, nil) }
        })
        #expect(try await result.get() == 5)
    }

    @Test func futureStreamAdaptersPublishEveryCallback() {
        let stream: FutureStream<Int> = futureStream(method: {
            (completion: @escaping @Sendable (Int?, (any Error)?) -> Void) in
            completion(1, nil)
            completion(nil, FuturesError.timedOut)
            completion(nil, nil)
        })
        let seen = Recorder<String>()
        stream.onComplete(context: immediate) { seen.append((try? $0.get()).map { "\($0)" } ?? "\($0)") }
        #expect(
            seen.values == [
                "1", "failure(Futures.FuturesError.timedOut)", "failure(Futures.FuturesError.invalidValue)",
            ])
        #expect(!stream.isFinished)
        let values = futureStream(
            capacity: 2,
            method: { (completion: @escaping @Sendable (Int) -> Void) in
                for value in 0..<5 { completion(value) }
            })
        #expect(values.count == 2 && values.capacity == 2)
        let voids = futureStream(method: { (completion: @escaping @Sendable ((any Error)?) -> Void) in
            completion(nil)
            completion(FuturesError.timedOut)
        })
        #expect(voids.count == 2)
        let optional: FutureStream<Int?> = futureStream(method: AsyncRequester(value: nil, error: nil).request)
        #expect(optional.count == 1)
    }

    @Test func aTaskStreamHoldsOneResultThenFinishes() async throws {
        let stream = futureStream(context: ExecutionContext(queue: .global())) { 7 }
        var seen: [Int] = []
        for try await value in stream { seen.append(value) }
        #expect(seen == [7])
        let failing = futureStream(context: immediate) { () throws -> Int in throw FuturesError.timedOut }
        #expect(failing.isFinished && failing.count == 1)
    }
}
