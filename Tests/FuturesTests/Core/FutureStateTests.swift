import Testing

@testable import Futures

@Suite("FutureState: the core state machine, on its own")
struct FutureStateTests {
    typealias State = FutureState<Int, Never>

    @Test func completingAPendingStateWithNoCallbacksJustStoresTheResult() {
        var state = State(result: nil)
        guard case .completed = state.complete(.success(1)) else {
            Issue.record("expected .completed")
            return
        }
        #expect(state.result.map { $0.get() } == 1)
        #expect(!state.isRunningCallbacks)
    }

    @Test func completingTwiceIsRefusedAndKeepsTheFirstResult() {
        var state = State(result: nil)
        _ = state.complete(.success(1))
        guard case .alreadyCompleted = state.complete(.success(2)) else {
            Issue.record("expected .alreadyCompleted")
            return
        }
        #expect(state.result.map { $0.get() } == 1)
    }

    @Test func completingHandsOutEveryStoredCallbackAndKeepsNone() {
        var state = State(result: nil)
        _ = state.register(.inline { _ in })
        _ = state.register(.inline { _ in })
        _ = state.register(.inline { _ in })
        guard case .run(let list) = state.complete(.success(1)) else {
            Issue.record("expected .run")
            return
        }
        #expect(list.count == 3)
        #expect(state.waitingCallbacks.isEmpty)
        #expect(state.isRunningCallbacks)
    }

    @Test func registeringOnAnIdleCompletedStateTakesTheTurn() {
        var state = State(result: .success(5))
        guard case .runNow(let result) = state.register(.inline { _ in }) else {
            Issue.record("expected .runNow")
            return
        }
        #expect(result.get() == 5)
        #expect(state.isRunningCallbacks)
        // A second registration while the turn is taken waits in line.
        guard case .stored = state.register(.inline { _ in }) else {
            Issue.record("expected .stored")
            return
        }
        #expect(state.endTurn()?.count == 1)
        #expect(state.isRunningCallbacks)
        #expect(state.endTurn() == nil)
        #expect(!state.isRunningCallbacks)
    }

    @Test func takeTurnIfCompletedFailsWhilePendingOrBusy() {
        var pending = State(result: nil)
        #expect(pending.takeTurnIfCompleted() == nil)
        var done = State(result: .success(1))
        #expect(done.takeTurnIfCompleted() != nil)
        #expect(done.takeTurnIfCompleted() == nil)
    }

    @Test func cancellationHandlersAreHandedOutAndOnlyWhilePending() {
        var state = State(result: nil)
        _ = state.register(.inline { _ in })
        #expect(state.registerCancellationHandler({}, alreadyRequested: false) == .stored)
        #expect(state.registerCancellationHandler({}, alreadyRequested: false) == .stored)
        #expect(state.takeCancellationHandlers().count == 2)
        #expect(state.waitingCallbacks.count == 1, "the ordinary callback stays")
        #expect(state.takeCancellationHandlers().isEmpty, "handlers are handed out once")
        #expect(state.registerCancellationHandler({}, alreadyRequested: true) == .runNow)
        _ = state.complete(.success(1))
        #expect(state.registerCancellationHandler({}, alreadyRequested: false) == .dropped)
        #expect(state.takeCancellationHandlers().isEmpty)
    }

    @Test func callbacksQueuedDuringATurnAreHandedOutWhenItEnds() {
        var state = State(result: .success(1))
        guard case .runNow = state.register(.inline { _ in }) else {
            Issue.record("expected .runNow")
            return
        }
        for _ in 0..<3 { _ = state.register(.inline { _ in }) }
        #expect(state.waitingCallbacks.count == 3)
        #expect(state.endTurn()?.count == 3)
        #expect(state.isRunningCallbacks, "the turn stays taken while the queue runs")
        #expect(state.endTurn() == nil)
        #expect(!state.isRunningCallbacks)
        #expect(state.result.map { $0.get() } == 1)
    }

    @Test func wakeUpsRegisteredOnACompletedStateGetTheResultAtOnce() {
        var state = State(result: .success(3))
        #expect(state.registerWakeUp { _ in }.map { $0.get() } == 3)
        var pending = State(result: nil)
        #expect(pending.registerWakeUp { _ in } == nil)
        #expect(pending.waitingCallbacks.count == 1)
    }
}
