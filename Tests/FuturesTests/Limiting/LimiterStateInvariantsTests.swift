import Testing

@testable import Futures

/// The limiter's whole-state invariants (`LimiterState._checkInvariants()`, run at the end of every critical
/// region of a `ConcurrencyLimiter` in debug builds): each event leaves them true, and a broken state names
/// the rule it breaks.
@Suite("The limiter's state invariants hold after every event and catch a broken state")
struct LimiterStateInvariantsTests {
    /// A piece of work that only records what the state machine tells it.
    final class Work: LimitedWork, @unchecked Sendable {
        // `@unchecked Sendable`: each test uses its items on one thread only.
        let priority: ConcurrencyLimiter.Priority
        var queueIndex = -1
        var mark: ContinuousClock.Instant?

        init(_ priority: ConcurrencyLimiter.Priority = .normal) { self.priority = priority }
        func start(in limiter: ConcurrencyLimiter) {}
        func drop() {}
        func requestCancellation() {}
    }

    @Test func everyEventLeavesTheStateSound() {
        var state = LimiterState(maxConcurrent: 2)
        let items = (0..<6).map { Work($0 % 2 == 0 ? .normal : .high) }
        for item in items {
            _ = state.submit(item)
            #expect(state.invariantViolations.isEmpty)
        }
        #expect(state.running.count == 2 && state.queuedCount == 4)
        let removed = state.remove(items[3])
        #expect(removed)
        #expect(state.invariantViolations.isEmpty)
        let next = state.finish(items[0])
        #expect(next === items[5], "the oldest high-priority item starts first")
        #expect(state.invariantViolations.isEmpty)
        var queued: [any LimitedWork] = []
        var running: [any LimitedWork] = []
        let closed = state.close(queued: &queued, running: &running)
        #expect(closed)
        #expect(state.invariantViolations.isEmpty)
        #expect(queued.count == 2 && running.count == 2)
    }

    @Test func aQueuedItemThatLostItsSlotIsCaught() {
        var state = LimiterState(maxConcurrent: 1)
        let (first, second) = (Work(), Work())
        _ = state.submit(first)
        _ = state.submit(second)
        second.queueIndex = 5
        #expect(state.invariantViolations == ["a queued item at slot 0 believes it is at 5"])
    }
}
