import Dispatch
import Testing

@testable import Futures

@Suite("zip")
struct FutureZipTests {
    @Test func zipPairsBothValues() {
        let zipped = Future<Int, ComboError>(value: 1).zip(Future(value: "two"))
        #expect(zipped.value?.0 == 1 && zipped.value?.1 == "two")
    }

    @Test func zipOfTwoFailuresFailsWithTheReceiversError() {
        let zipped = Future<Int, ComboError>(error: .first).zip(Future<Int, ComboError>(error: .second))
        #expect(zipped.error == .first)
    }

    @Test func zipOfTwoPendingFailuresFailsWithTheReceiversErrorWhateverTheOrder() {
        let receiver = Promise<Int, ComboError>()
        let other = Promise<Int, ComboError>()
        let zipped = receiver.future.zip(other.future)
        other.failure(.second)
        #expect(!zipped.isCompleted)
        receiver.failure(.first)
        #expect(zipped.error == .first)
    }

    @Test func zipFailsWithTheOtherErrorWhenOnlyTheOtherFails() {
        let zipped = Future<Int, ComboError>(value: 1).zip(Future<Int, ComboError>(error: .second))
        #expect(zipped.error == .second)
    }

    @Test func zipFailsAsSoonAsTheReceiverFails() {
        let other = Promise<Int, ComboError>()
        let zipped = Future<Int, ComboError>(error: .first).zip(other.future)
        #expect(zipped.error == .first)
        other.success(1)
    }

    @Test func zipWaitsForBothFutures() {
        let receiver = Promise<Int, ComboError>()
        let other = Promise<String, ComboError>()
        let zipped = receiver.future.zip(other.future)
        other.success("b")
        #expect(!zipped.isCompleted)
        receiver.success(1)
        #expect(zipped.value?.0 == 1 && zipped.value?.1 == "b")
    }

    @Test func zipOfFuturesCompletedConcurrentlyPairsTheirValues() {
        for round in 0..<200 {
            let left = Promise<Int, ComboError>()
            let right = Promise<Int, ComboError>()
            let zipped = left.future.zip(right.future)
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 { left.success(round) } else { right.success(-round) }
            }
            let pair = zipped.forced()
            #expect(pair.map { $0.0 == round && $0.1 == -round } == .success(true))
        }
    }
}
