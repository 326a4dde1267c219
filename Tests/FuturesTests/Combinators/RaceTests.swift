import Testing

@testable import Futures

/// A pending future, completed by the test, that counts the cancellation requests it receives.
/// (Writes the future directly, so runners a test leaves pending are not reported as dropped promises.)
final class CancelCountingFuture<T: Sendable, E: Error>: Sendable {
    let future = Future<T, E>()
    let cancellations = Counter()

    init() {
        future.onCancellationRequested { [cancellations] in cancellations.increment() }
    }

    func success(_ value: T) { future.complete(.success(value)) }
    func failure(_ error: E) { future.complete(.failure(error)) }
}

@Suite("race and firstCompleted(cancellingOthers:)", .hangGuard())
struct RaceTests {
    @Test func theFirstSuccessWinsAndTheLosersAreCancelled() {
        let runners = (0..<3).map { _ in CancelCountingFuture<Int, Flaky>() }
        let winner = Future.race(runners[0].future, runners[1].future, runners[2].future)
        runners[0].failure(.transient(0))  // a failure does not win a race
        #expect(!winner.isCompleted)
        runners[2].success(2)
        #expect(winner.value == 2)
        #expect(runners.map(\.cancellations.value) == [0, 1, 0])
        runners[1].success(1)  // too late
        #expect(winner.value == 2)
    }

    @Test func whenEveryRunnerFailsTheFirstInOrderIsTheError() {
        let runners = (0..<3).map { _ in Promise<Int, Flaky>() }
        let winner = Future.race(runners.map(\.future))
        runners[2].failure(.fatal(2))
        runners[0].failure(.fatal(0))
        #expect(!winner.isCompleted)
        runners[1].failure(.fatal(1))
        #expect(winner.error == .fatal(0))
    }

    @Test func anEmptyRaceFailsWithNoSuchElementWhenItCan() {
        let untyped = Future<Int, any Error>.race([])
        #expect(untyped.error as? FuturesError == .noSuchElement)
        let typed = Future<Int, FuturesError>.race([Future<Int, FuturesError>]())
        #expect(typed.error == .noSuchElement)
    }

    @Test func anEmptyRaceOfAFailureTypeThatCannotSayNoInputTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Future<Int, Never>.race([Future<Int, Never>]())
        }
        await #expect(processExitsWith: .failure) {
            _ = [Future<Int, Flaky>]().firstCompleted(cancellingOthers: true)
        }
    }

    @Test func aCancellationRequestOnTheRaceReachesEveryRunner() {
        let runners = (0..<2).map { _ in CancelCountingFuture<Int, Flaky>() }
        Future.race(runners.map(\.future)).requestCancellation()
        #expect(runners.map(\.cancellations.value) == [1, 1])
    }

    @Test func firstCompletedTakesAFailureTooAndCancelsTheOthersOnRequest() {
        let runners = (0..<3).map { _ in CancelCountingFuture<Int, Flaky>() }
        let first = runners.map(\.future).firstCompleted(cancellingOthers: true)
        runners[1].failure(.fatal(1))
        #expect(first.error == .fatal(1))
        #expect(runners.map(\.cancellations.value) == [1, 0, 1])
    }

    @Test func firstCompletedWithoutCancellingLeavesTheOthersAlone() {
        let runners = (0..<3).map { _ in CancelCountingFuture<Int, Flaky>() }
        let first = runners.map(\.future).firstCompleted(cancellingOthers: false)
        runners[2].success(2)
        #expect(first.value == 2)
        #expect(runners.map(\.cancellations.value) == [0, 0, 0])
    }

    @Test func theResultIsDeliveredEvenWhenNobodyHoldsTheCombinedFuture() {
        let runners = (0..<2).map { _ in CancelCountingFuture<Int, Flaky>() }
        let seen = Recorder<String>()
        Future.race(runners[0].future, runners[1].future).onSuccess(immediateExecutionContext) {
            seen.append("race \($0)")
        }
        [runners[0].future, runners[1].future].firstCompleted(cancellingOthers: false)
            .onSuccess(immediateExecutionContext) { seen.append("first \($0)") }
        runners[1].success(1)
        #expect(seen.values == ["race 1", "first 1"])
    }

    @Test func firstCompletedPrefersTheFirstAlreadyCompletedInOrder() {
        let first = [Future<Int, Flaky>(), Future(value: 1), Future(error: .fatal(2))]
            .firstCompleted(cancellingOthers: true)
        #expect(first.value == 1)
    }
}
