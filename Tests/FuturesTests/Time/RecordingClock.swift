import Clocks
import Futures

/// A `TestClock` that also reports each sleep the library asks for: how long it waits (deadline minus
/// now at the request) and how it ends. Tests await these reports instead of guessing when a task
/// has reached its sleep, and advance a tick past each deadline, so a sleep registered late simply
/// finds its deadline passed. Time moves only when a test calls `advance`.
final class RecordingClock: Clock, Sendable {
    typealias Duration = Swift.Duration
    typealias Instant = TestClock<Swift.Duration>.Instant

    enum Ending: Equatable, Sendable {
        case reached
        case cancelled
    }

    /// One nanosecond: tests advance this much past a deadline.
    static let tick = Duration.nanoseconds(1)

    private let base = TestClock()
    let waits: AsyncStream<Duration>
    let endings: AsyncStream<Ending>
    private let waitsContinuation: AsyncStream<Duration>.Continuation
    private let endingsContinuation: AsyncStream<Ending>.Continuation

    init() {
        (waits, waitsContinuation) = AsyncStream.makeStream(of: Duration.self)
        (endings, endingsContinuation) = AsyncStream.makeStream(of: Ending.self)
    }

    var now: Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }
    /// Virtual time elapsed since the clock was created.
    var elapsed: Duration { Instant().duration(to: base.now) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        waitsContinuation.yield(now.duration(to: deadline))
        do {
            try await base.sleep(until: deadline, tolerance: tolerance)
            endingsContinuation.yield(.reached)
        } catch {
            endingsContinuation.yield(.cancelled)
            throw error
        }
    }

    /// Moves virtual time forward by `duration`, resuming the sleeps that are due.
    func advance(by duration: Duration) async {
        await base.advance(by: duration)
    }
}
