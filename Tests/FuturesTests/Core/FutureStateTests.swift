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

    @Test func removableEntriesCanBeTakenBackWhilePendingAndOnlyOnce() {
        var state = State(result: nil)
        let wakeUp = RemovableEntry<Int, Never>(.wakeUp { _ in })
        let handler = RemovableEntry<Int, Never>(.cancellation {})
        _ = state.register(.inline { _ in })
        guard case .stored = state.registerRemovable(wakeUp, alreadyRequested: false),
            case .stored = state.registerRemovable(handler, alreadyRequested: false)
        else {
            Issue.record("expected both to be stored")
            return
        }
        #expect(state.waitingCallbacks.count == 3)
        #expect(removed(&state, wakeUp))
        #expect(!removed(&state, wakeUp), "a second removal finds nothing")
        #expect(state.waitingCallbacks.count == 2, "the callback and the handler stay, in order")
        #expect(removed(&state, handler))
        guard case .one(.inline) = state.waitingCallbacks else {
            Issue.record("expected only the ordinary callback to remain")
            return
        }
    }

    @Test func removableHandlersAreHandedOutByACancellationRequestAndCannotBeRemovedAfterwards() {
        var state = State(result: nil)
        let handler = RemovableEntry<Int, Never>(.cancellation {})
        let wakeUp = RemovableEntry<Int, Never>(.wakeUp { _ in })
        _ = state.registerRemovable(handler, alreadyRequested: false)
        _ = state.registerRemovable(wakeUp, alreadyRequested: false)
        #expect(state.takeCancellationHandlers().count == 1)
        #expect(!removed(&state, handler), "already handed out")
        let late = RemovableEntry<Int, Never>(.cancellation {})
        guard case .cancellationRequested = state.registerRemovable(late, alreadyRequested: true) else {
            Issue.record("a handler registered after the request must run at once")
            return
        }
        let lateWakeUp = RemovableEntry<Int, Never>(.wakeUp { _ in })
        guard case .stored = state.registerRemovable(lateWakeUp, alreadyRequested: true) else {
            Issue.record("a wake-up still waits for the result")
            return
        }
        #expect(removed(&state, wakeUp))
        #expect(removed(&state, lateWakeUp))
        #expect(state.waitingCallbacks.isEmpty)
    }

    @Test func completingHandsOutRemovableEntriesAndNothingIsRemovableAfterwards() {
        var state = State(result: nil)
        let wakeUp = RemovableEntry<Int, Never>(.wakeUp { _ in })
        let handler = RemovableEntry<Int, Never>(.cancellation {})
        _ = state.registerRemovable(wakeUp, alreadyRequested: false)
        _ = state.registerRemovable(handler, alreadyRequested: false)
        guard case .run(let list) = state.complete(.success(1)) else {
            Issue.record("expected .run")
            return
        }
        #expect(list.count == 2)
        #expect(!removed(&state, wakeUp) && !removed(&state, handler))
        let late = RemovableEntry<Int, Never>(.wakeUp { _ in })
        guard case .completed(let result) = state.registerRemovable(late, alreadyRequested: false) else {
            Issue.record("expected .completed")
            return
        }
        #expect(result.get() == 1)
        #expect(state.takeCancellationHandlers().isEmpty)
    }

    private func removed(_ state: inout State, _ entry: RemovableEntry<Int, Never>) -> Bool {
        state.remove(entry)
    }
}
