import Futures
import Testing

// The swift-futures side of the code in the catalog's "Migrating from SimpleFutures" guide
// (Futures.docc/MigratingFromSimpleFutures.md), verbatim: scripts/check-doc-snippets.sh fails when the two
// drift apart.
@Suite("Docs: Migrating from SimpleFutures")
struct MigratingFromSimpleFuturesSnippetTests {
    @Test func aPromiseFollowsAnotherFuture() async throws {
        let source = Promise<Int, any Error>()
        let dependentFuture = source.future

        let another = Promise<Int, any Error>()
        another.completeWith(dependentFuture)
        let anotherFuture = another.future

        #expect(!anotherFuture.isCompleted)
        source.success(1)
        #expect(try await anotherFuture.get() == 1)
    }

    @Test func aThrowingTransformIsAFlatMapIntoAResult() async throws {
        let halved = Future<Int, any Error>(value: 8).flatMap { value in Future(result: Result { try transform(value) })
        }
        #expect(try await halved.get() == 4)
        let odd = Future<Int, any Error>(value: 3).flatMap { value in Future(result: Result { try transform(value) }) }
        await #expect(throws: OddNumber.self) { try await odd.get() }
    }
}

private struct OddNumber: Error {}

/// Halves an even number; throws for an odd one.
private func transform(_ value: Int) throws -> Int {
    guard value.isMultiple(of: 2) else { throw OddNumber() }
    return value / 2
}
