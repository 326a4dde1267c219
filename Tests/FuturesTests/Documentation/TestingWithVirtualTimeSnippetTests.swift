import Clocks
import Futures
import Testing

// The code of the catalog's "Testing with virtual time" article (Futures.docc/TestingWithVirtualTime.md),
// verbatim: scripts/check-doc-snippets.sh fails when the two drift apart.
@Suite("Docs: Testing with virtual time", .hangGuard())
struct TestingWithVirtualTimeSnippetTests {
    struct AttemptError: Error {}

    @Test func afterCompletesOnVirtualTime() async {
        let clock = TestClock()
        let tick = Future.after(.seconds(2), clock: clock)
        await clock.advance(by: .seconds(1))
        // one second to go
        #expect(!tick.isCompleted)
        await clock.advance(by: .seconds(1) + .nanoseconds(1))
        // completes without real waiting
        await tick.get()
    }

    @Test func aTimeoutFiresOnVirtualTime() async {
        let clock = TestClock()
        let slow = Promise<Int, Never>()
        let bounded = slow.future.timeout(after: .seconds(5), clock: clock)
        await clock.advance(by: .seconds(5) + .nanoseconds(1))
        await #expect(throws: TimeoutError<Never>.timedOut) {
            try await bounded.get()
        }
        _ = slow
    }

    @Test func aRetryBacksOffOnVirtualTime() async throws {
        let clock = TestClock()
        let attempts = Counter()
        let retried = Future<Int, AttemptError>.retry(
            3, backoff: .constant(.seconds(1)), clock: clock
        ) {
            attempts.increment() < 3
                ? Future(error: AttemptError()) : Future(value: 42)
        }
        while !retried.isCompleted { await clock.advance(by: .seconds(1)) }
        #expect(try await retried.get() == 42)
        #expect(attempts.value == 3)
    }
}
