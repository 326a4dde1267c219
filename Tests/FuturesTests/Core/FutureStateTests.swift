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
        #expect(state.callbacks.isEmpty)
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

    @Test func cancellationHandlersAreHandedOutOnceAndOnlyWhilePending() {
        var state = State(result: nil)
        _ = state.register(.inline { _ in })
        #expect(state.registerCancellationHandler {} == .stored)
        #expect(state.registerCancellationHandler {} == .stored)
        #expect(state.requestCancellation().count == 2)
        #expect(state.callbacks.count == 1, "the ordinary callback stays")
        #expect(state.requestCancellation().isEmpty, "a second request runs nothing")
        #expect(state.registerCancellationHandler {} == .runNow)
        _ = state.complete(.success(1))
        #expect(state.registerCancellationHandler {} == .dropped)
    }

    @Test func wakeUpsRegisteredOnACompletedStateGetTheResultAtOnce() {
        var state = State(result: .success(3))
        #expect(state.registerWakeUp { _ in }.map { $0.get() } == 3)
        var pending = State(result: nil)
        #expect(pending.registerWakeUp { _ in } == nil)
        #expect(pending.callbacks.count == 1)
    }

    @Test func removableEntriesCanBeTakenBackWhilePendingAndOnlyOnce() {
        var state = State(result: nil)
        let wakeUp = RemovableEntry<Int, Never>(.wakeUp { _ in })
        let handler = RemovableEntry<Int, Never>(.cancellation {})
        _ = state.register(.inline { _ in })
        guard case .stored = state.registerRemovable(wakeUp), case .stored = state.registerRemovable(handler) else {
            Issue.record("expected both to be stored")
            return
        }
        #expect(state.callbacks.count == 3)
        #expect(removed(&state, wakeUp))
        #expect(!removed(&state, wakeUp), "a second removal finds nothing")
        #expect(state.callbacks.count == 2, "the callback and the handler stay, in order")
        #expect(removed(&state, handler))
        guard case .one(.inline) = state.callbacks else {
            Issue.record("expected only the ordinary callback to remain")
            return
        }
    }

    @Test func removableHandlersAreHandedOutByACancellationRequestAndCannotBeRemovedAfterwards() {
        var state = State(result: nil)
        let handler = RemovableEntry<Int, Never>(.cancellation {})
        let wakeUp = RemovableEntry<Int, Never>(.wakeUp { _ in })
        _ = state.registerRemovable(handler)
        _ = state.registerRemovable(wakeUp)
        #expect(state.requestCancellation().count == 1)
        #expect(!removed(&state, handler), "already handed out")
        guard case .cancellationRequested = state.registerRemovable(RemovableEntry(.cancellation {})) else {
            Issue.record("a handler registered after the request must run at once")
            return
        }
        guard case .stored = state.registerRemovable(RemovableEntry(.wakeUp { _ in })) else {
            Issue.record("a wake-up still waits for the result")
            return
        }
        #expect(removed(&state, wakeUp))
    }

    @Test func completingHandsOutRemovableWakeUpsAndNothingIsRemovableAfterwards() {
        var state = State(result: nil)
        let wakeUp = RemovableEntry<Int, Never>(.wakeUp { _ in })
        _ = state.registerRemovable(wakeUp)
        guard case .run(let list) = state.complete(.success(1)) else {
            Issue.record("expected .run")
            return
        }
        #expect(list.count == 1)
        #expect(!removed(&state, wakeUp))
        guard case .completed(let result) = state.registerRemovable(RemovableEntry(.wakeUp { _ in })) else {
            Issue.record("expected .completed")
            return
        }
        #expect(result.get() == 1)
    }

    private func removed(_ state: inout State, _ entry: RemovableEntry<Int, Never>) -> Bool {
        state.remove(entry)
    }
}
