import Testing

@testable import Futures

@Suite("fold, sequence, traverse on untyped futures")
struct UntypedSequenceTests {
    @Test func sequenceCollectsValuesInListOrder() {
        let promises = (0..<3).map { _ in Promise<Int, any Error>() }
        let all = promises.map(\.future).sequence(context: immediate)
        promises[2].success(3)
        promises[0].success(1)
        #expect(!all.isCompleted)
        promises[1].success(2)
        #expect(all.value == [1, 2, 3])
        #expect([Future<Int, any Error>]().sequence(context: immediate).value == [])
    }

    @Test func sequenceFailsWithTheFirstFailureInListOrder() {
        let promises = (0..<3).map { _ in Promise<Int, any Error>() }
        let all = promises.map(\.future).sequence(context: immediate)
        promises[2].failure(ParseError.notANumber("2"))
        #expect(!all.isCompleted)  // an earlier future may still fail first
        promises[1].failure(ParseError.notANumber("1"))
        #expect(!all.isCompleted)
        promises[0].success(0)
        #expect(all.error as? ParseError == .notANumber("1"))
    }

    @Test func foldCombinesInOrderAndFailsOnAThrow() {
        let futures = [1, 2, 3].map { Future<Int, any Error>(value: $0) }
        let folded = futures.fold(context: immediate, initial: "") { $0 + "\($1)" }
        #expect(folded.value == "123")
        let thrown = futures.fold(context: immediate, initial: 0) { sum, value -> Int in
            guard value < 3 else { throw ParseError.notANumber("\(value)") }
            return sum + value
        }
        #expect(thrown.error as? ParseError == .notANumber("3"))
        let failed = [Future<Int, any Error>(error: FuturesError.timedOut)].fold(context: immediate, initial: 0) {
            $0 + $1
        }
        #expect(failed.error as? FuturesError == .timedOut)
    }

    @Test func traverseMapsEveryElementToAFuture() {
        let traversed = [1, 2, 3].traverse(context: immediate) { Future<String, any Error>(value: "\($0)") }
        #expect(traversed.value == ["1", "2", "3"])
        let failing = [1, 2].traverse(context: immediate) { value -> Future<Int, any Error> in
            value == 2 ? Future(error: FuturesError.timedOut) : Future(value: value)
        }
        #expect(failing.error as? FuturesError == .timedOut)
    }

    @Test func aLongSequenceIsCollectedInLinearTime() {
        let futures = (0..<20_000).map { Future<Int, any Error>(value: $0) }
        let sum = futures.fold(context: immediate, initial: 0) { $0 + $1 }
        #expect(sum.value == (0..<20_000).reduce(0, +))
    }
}
