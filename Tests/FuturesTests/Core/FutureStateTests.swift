import Testing

@testable import Futures

@Suite("FutureState: the core state machine, on its own")
struct FutureStateTests {
    typealias State = FutureState<Int, Never>

    static let immediate: Callback<Int, Never> = .inline { _ in }
    static let onQueue: Callback<Int, Never> = .scheduled(
        ScheduledCallback(context: ExecutionContext { $0() }) { _ in })

    @Test func completingAPendingStateWithNoCallbacksJustStoresTheResult() {
        var state = State(result: nil)
        guard case .completed = state.complete(.success(1)) else {
            Issue.record("expected .completed")
            return
        }
        #expect(state.result.map { $0.get() } == 1)
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

    @Test func completingHandsOutEveryStoredEntryInOrderAndKeepsNone() {
        var state = State(result: nil)
        #expect(state.register(Self.immediate, handingOut: false) == .stored)
        #expect(state.register(Self.onQueue, handingOut: false) == .stored)
        #expect(state.register(.wakeUp { _ in }, handingOut: false) == .stored)
        guard case .run(let list, _) = state.complete(.success(7)) else {
            Issue.record("expected .run")
            return
        }
        #expect(list.count == 3)
        guard case .inline = list[0], case .scheduled = list[1], case .wakeUp = list[2] else {
            Issue.record("registration order not kept: \(list)")
            return
        }
        #expect(state.pendingEntries.isEmpty, "a completed state keeps only its result")
    }

    @Test func registeringOnACompletedStateRunsNowWhateverTheContext() {
        var state = State(result: .success(3))
        #expect(state.register(Self.immediate, handingOut: false) == .runNow(.success(3), Self.immediate))
        #expect(state.register(Self.onQueue, handingOut: false) == .runNow(.success(3), Self.immediate))
        #expect(state.register(.wakeUp { _ in }, handingOut: false) == .runNow(.success(3), Self.immediate))
    }

    @Test func whileTheCompleterHandsOutOnlyCallbacksForOtherContextsQueueBehindIt() {
        var state = State(result: .success(3))
        // Immediate callbacks and waiters never wait: they run on the registering thread.
        #expect(state.register(Self.immediate, handingOut: true) == .runNow(.success(3), Self.immediate))
        #expect(state.register(.wakeUp { _ in }, handingOut: true) == .runNow(.success(3), Self.immediate))
        // A callback for another context queues behind the hand-out, keeping registration order there.
        #expect(state.register(Self.onQueue, handingOut: true) == .stored)
        #expect(state.register(Self.onQueue, handingOut: true) == .stored)
        #expect(state.result.map { $0.get() } == 3)
        let late = state.takeLate()
        #expect(late?.count == 2)
        #expect(state.takeLate() == nil, "the hand-out is over once nothing queued")
        #expect(state.register(Self.onQueue, handingOut: false) == .runNow(.success(3), Self.immediate))
    }

    @Test func cancellationHandlersAreTakenOutAndTheOtherEntriesStayInOrder() {
        var state = State(result: nil)
        _ = state.register(Self.immediate, handingOut: false)
        #expect(state.registerCancellationHandler({}, alreadyRequested: false) == .stored)
        _ = state.register(.wakeUp { _ in }, handingOut: false)
        #expect(state.takeCancellationHandlers().count == 1)
        #expect(state.pendingEntries.count == 2)
        guard case .inline = state.pendingEntries[0], case .wakeUp = state.pendingEntries[1] else {
            Issue.record("order not kept")
            return
        }
        #expect(state.registerCancellationHandler({}, alreadyRequested: true) == .runNow)
        _ = state.complete(.success(1))
        #expect(state.registerCancellationHandler({}, alreadyRequested: false) == .dropped)
        #expect(state.takeCancellationHandlers().isEmpty)
    }

    @Test func aRemovableEntryIsTakenBackInConstantTimeAndLeavesOnlyATombstone() {
        var state = State(result: nil)
        let entries = (0..<5).map { _ in RemovableEntry<Int, Never>(.wakeUp { _ in }) }
        for entry in entries {
            guard case .stored = state.registerRemovable(entry, alreadyRequested: false, handingOut: false) else {
                Issue.record("expected .stored")
                return
            }
        }
        #expect(state.remove(entries[2], leaving: false).isRemoved)
        #expect(entries[2].kind == nil, "the closure is handed back for release")
        #expect(!state.remove(entries[2], leaving: false).isRemoved, "removing twice finds nothing")
        #expect(state.pendingEntries.liveCount == 4)
        _ = state.complete(.success(1))
        #expect(!state.remove(entries[0], leaving: false).isRemoved, "completion handed every entry out")
    }

    @Test func anEntryRemovedBeforeItWasRegisteredIsNeverStored() {
        var state = State(result: nil)
        let entry = RemovableEntry<Int, Never>(.wakeUp { _ in })
        guard case .withdrawn = state.remove(entry, leaving: true) else {
            Issue.record("expected .withdrawn")
            return
        }
        guard
            case .withdrawn(leaving: true) = state.registerRemovable(entry, alreadyRequested: false, handingOut: false)
        else {
            Issue.record("expected .withdrawn(leaving: true)")
            return
        }
        #expect(state.pendingEntries.liveConsumerCount == 0)
        #expect(!state.remove(entry, leaving: false).isRemoved, "a withdrawn entry is gone")
    }

    @Test func tombstonesAreShedBeforeTheListGrowsSoItStaysBounded() {
        var state = State(result: nil)
        for _ in 0..<10_000 {
            let entry = RemovableEntry<Int, Never>(.wakeUp { _ in })
            _ = state.registerRemovable(entry, alreadyRequested: false, handingOut: false)
            _ = state.remove(entry, leaving: false)
        }
        #expect(state.pendingEntries.count < 64, "register/remove cycles must not grow the list")
        #expect(state.pendingEntries.liveCount == 0)
    }

    @Test func aRemovableHandlerIsRunNowWhenCancellationWasRequestedAndNeverStoredOnceCompleted() {
        var state = State(result: nil)
        let handler = RemovableEntry<Int, Never>(.cancellation {})
        guard case .cancellationRequested = state.registerRemovable(handler, alreadyRequested: true, handingOut: false)
        else {
            Issue.record("expected .cancellationRequested")
            return
        }
        _ = state.complete(.success(2))
        let wakeUp = RemovableEntry<Int, Never>(.wakeUp { _ in })
        guard case .completed(.success(2)) = state.registerRemovable(wakeUp, alreadyRequested: false, handingOut: false)
        else {
            Issue.record("expected .completed")
            return
        }
    }

    @Test func aPendingListIsTakenWholeForReleaseAndLeavesThePendingStateEmpty() {
        var state = State(result: nil)
        _ = state.register(Self.immediate, handingOut: false)
        _ = state.register(Self.immediate, handingOut: false)
        #expect(state.takePendingList().count == 2)
        #expect(state.pendingEntries.isEmpty)
        #expect(state.result == nil)
    }
}

extension FutureState.RegisterAction: Equatable where T: Equatable, E: Equatable {
    /// Equal when both store, or both run now with equal results (the entry handed back is not compared:
    /// closures have no equality).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.stored, .stored): return true
        case (.runNow(let a, _), .runNow(let b, _)): return a == b
        default: return false
        }
    }
}
