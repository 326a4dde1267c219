import Dispatch
import Testing

@testable import Futures

private enum Failure: Error, Equatable {
    case boom
}

/// Completion-handler APIs of the three shapes `materialize` accepts.
private func fetch(_ value: Int?, _ error: Failure?, completion: @escaping @Sendable (Int?, Failure?) -> Void) {
    DispatchQueue.global().async { completion(value, error) }
}
private func count(completion: @escaping @Sendable (Int) -> Void) {
    DispatchQueue.global().async { completion(3) }
}
private func save(_ error: Failure?, completion: @escaping @Sendable (Failure?) -> Void) {
    DispatchQueue.global().async { completion(error) }
}

@Suite("materialize: completion handlers into futures")
struct MaterializeTests {
    @Test func valueOrErrorShapeSucceedsWithTheValue() async throws {
        let future: Future<Int, Failure> = materialize { fetch(1, nil, completion: $0) }
        #expect(try await future.get() == 1)
    }

    @Test func valueOrErrorShapeFailsWithTheError() async {
        let future: Future<Int, Failure> = materialize { fetch(nil, .boom, completion: $0) }
        await #expect(throws: Failure.boom) { try await future.get() }
    }

    @Test func valueOrErrorShapePrefersTheValueAndIgnoresBothNil() {
        let both: Future<Int, Failure> = materialize { done in done(1, .boom) }
        let neither: Future<Int, Failure> = materialize { done in done(nil, nil) }
        #expect(both.value == 1)
        #expect(!neither.isCompleted)
    }

    @Test func valueOnlyShapeGivesANeverFailingFuture() async {
        let future = materialize { count(completion: $0) }
        #expect(await future.get() == 3)
    }

    @Test func errorOnlyShapeSucceedsWithVoidOnNil() async throws {
        let future: Future<Void, Failure> = materialize { save(nil, completion: $0) }
        try await future.get()
        #expect(future.isSuccess)
    }

    @Test func errorOnlyShapeFailsWithTheError() async {
        let future: Future<Void, Failure> = materialize { save(.boom, completion: $0) }
        await #expect(throws: Failure.boom) { try await future.get() }
    }

    @Test func aSecondCallOfTheHandlerIsIgnoredAndReported() {
        let reports = Recorder<FuturesDiagnostic>()
        FuturesDiagnostics.withHandler({ reports.append($0) }) {
            let future: Future<Int, Failure> = materialize { done in
                done(1, nil)
                done(2, nil)
            }
            #expect(future.value == 1)
        }
        #expect(reports.values.count == 1)
    }
}
