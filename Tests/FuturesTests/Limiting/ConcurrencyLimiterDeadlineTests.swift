import Clocks
import Dispatch
import Testing

@testable import Futures

/// Deadlines and the bound: a slot is freed only when the work's own future completes, whether the
/// deadline is the limiter's (`submit(timeout:)`) or put around the item (`submit { … }.timeout(…)`).
@Suite("ConcurrencyLimiter: deadlines")
struct ConcurrencyLimiterDeadlineTests {
    enum Form: String, CaseIterable, CustomTestStringConvertible {
        /// `limiter.submit(timeout:clock:) { work }`: the deadline counts from the start.
        case limiterDeadline
        /// `limiter.submit { work }.timeout(after:clock:)`: the deadline counts from the submission.
        case timeoutAroundTheItem
        var testDescription: String { rawValue }

        func submit(
            to limiter: ConcurrencyLimiter, clock: TestClock<Duration>,
            _ work: @escaping @Sendable () -> Future<Int, any Error>
        ) -> Future<Int, any Error> {
            switch self {
            case .limiterDeadline: limiter.submit(timeout: .seconds(1), clock: clock, work)
            case .timeoutAroundTheItem: limiter.submit(work).timeout(after: .seconds(1), clock: clock)
            }
        }
    }

    /// The deadline fails the item at once and asks its work to cancel; the slot waits for the work.
    @Test(arguments: Form.allCases)
    func aDeadlineFailsTheItemAtOnceAndTheSlotWaitsForTheWork(_ form: Form) async {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let clock = TestClock()
        let work = Promise<Int, any Error>()
        let asked = AsyncGate()
        work.onCancellationRequested { asked.open() }
        let started = Counter()
        let item = form.submit(to: limiter, clock: clock) { work.future }
        let next = limiter.submit { () -> Future<Int, any Error> in
            started.increment()
            return Future(value: 2)
        }
        await clock.advance(by: .seconds(1))
        await asked.wait()
        await #expect(throws: FuturesError.timedOut) { try await item.get() }
        #expect(limiter.runningCount == 1 && started.value == 0)  // the work still runs: its slot is taken
        work.failure(FuturesError.cancelled)
        #expect(started.value == 1)
        #expect(next.value == 2)
    }

    /// The typed form fails with the given error, and the work's own success before the deadline passes
    /// through.
    @Test func theTypedFormFailsWithTheGivenErrorAndPassesTheWorksResult() async {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let clock = TestClock()
        let fast = limiter.submit(
            failingWith: ComboError.first, timeout: .seconds(1), clock: clock, timingOutWith: ComboError.second
        ) {
            Future<Int, ComboError>(value: 1)
        }
        #expect(fast.value == 1)
        let work = Promise<Int, ComboError>()
        work.onCancellationRequested { work.failure(.first) }
        let slow = limiter.submit(
            failingWith: ComboError.first, timeout: .seconds(1), clock: clock, timingOutWith: ComboError.second
        ) {
            work.future
        }
        await clock.advance(by: .seconds(1))
        let result = await slow.outcome()
        #expect(result.error == .second)
        #expect(work.future.error == .first)
    }

    /// Many items, submitted in waves while time passes, a third of which outlive the deadline and take a
    /// while to stop once asked: the most that ever run at once, counted by the work itself from its start
    /// to the completion of its future, never exceeds the bound.
    @Test(.hangGuard(), arguments: Form.allCases)
    func theBoundHoldsAtTheWorkWhileDeadlinesFire(_ form: Form) async {
        let bound = 4
        let (waves, perWave) = (25, 12)
        let total = waves * perWave
        let limiter = ConcurrencyLimiter(maxConcurrent: bound)
        let clock = TestClock()
        let work = WorkMeter()
        let timedOut = Counter()
        let settled = Counter()
        for wave in 0..<waves {
            for index in 0..<perWave {
                let item = form.submit(to: limiter, clock: clock) { work.start(slow: (wave + index) % 3 == 0) }
                item.onComplete(immediateExecutionContext) { result in
                    if case .failure(FuturesError.timedOut) = result { timedOut.increment() }
                    settled.increment()
                }
            }
            await clock.advance(by: .milliseconds(250))
        }
        while settled.value < total { await clock.advance(by: .milliseconds(250)) }
        await work.drained(limiter)
        #expect(work.peak <= bound)
        #expect(work.peak == bound)  // the bound was reached: the test exercised it
        #expect(work.started == work.ended)
        #expect(timedOut.value >= total / 3)
        if form == .limiterDeadline {
            #expect(work.started == total)  // time spent waiting does not count
        }
        #expect(limiter.runningCount == 0 && limiter.queuedCount == 0)
    }
}

extension Future {
    /// The result, awaited.
    func outcome() async -> Result<T, E> {
        await withCheckedContinuation { continuation in
            onComplete(immediateExecutionContext) { continuation.resume(returning: $0) }
        }
    }
}
