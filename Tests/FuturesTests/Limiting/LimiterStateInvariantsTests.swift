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
        let site = CallSite(file: #fileID, line: #line)
        let submitted = ContinuousClock.now
        let canEnd: Bool

        init(_ priority: ConcurrencyLimiter.Priority = .normal, canEnd: Bool = true) {
            self.priority = priority
            self.canEnd = canEnd
        }
        func start(in limiter: ConcurrencyLimiter) {}
        func drop() {}
        func end() {}
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
        let (freed, next) = state.finish(items[0])
        #expect(freed)
        #expect(next === items[5], "the oldest high-priority item starts first")
        #expect(state.invariantViolations.isEmpty)
        var queued: [any LimitedWork] = []
        var running: [any LimitedWork] = []
        let closed = state.close(queued: &queued, running: &running)
        #expect(closed)
        #expect(state.invariantViolations.isEmpty)
        #expect(queued.count == 2 && running.count == 2)
        var ended: [any LimitedWork] = []
        state.endRunning(into: &ended)
        #expect(state.invariantViolations.isEmpty)
        #expect(ended.count == 2 && state.running.isEmpty && state.itemCount == 0)
        let (freedAgain, nextAgain) = state.finish(items[5])
        #expect(!freedAgain && nextAgain == nil, "an ended item's later finish changes nothing")
        #expect(state.invariantViolations.isEmpty)
    }

    /// Ending the running items takes only those that can be ended (an engine's items without a shutdown
    /// error stay, and free their slots when their work ends).
    @Test func endingRunningItemsTakesOnlyThoseThatCanEnd() {
        var state = LimiterState(maxConcurrent: 2)
        let (endable, engines) = (Work(), Work(canEnd: false))
        _ = state.submit(endable)
        _ = state.submit(engines)
        var queued: [any LimitedWork] = []
        var running: [any LimitedWork] = []
        _ = state.close(queued: &queued, running: &running)
        var ended: [any LimitedWork] = []
        state.endRunning(into: &ended)
        #expect(ended.count == 1 && ended.first === endable)
        #expect(state.running.count == 1)
        #expect(state.finish(engines).freed)
        #expect(state.itemCount == 0 && state.invariantViolations.isEmpty)
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
