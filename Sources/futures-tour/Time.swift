import Futures

/// Chapter: time on an injected clock (here the real `ContinuousClock`, with delays of a few ms).
func tourTime() async {
    print("\n== Time: after, delay, timeout, retry ==")
    let clock = ContinuousClock()

    await Future.after(.milliseconds(5), clock: clock).get()
    print("after(5 ms): fired")

    let delayed = Future<String, Never>(value: "late hello").delay(for: .milliseconds(5), clock: clock)
    print("delay(for: 5 ms) completed at once?", delayed.isCompleted)
    print("delay(for: 5 ms):", await delayed.get())

    // A future that never answers gets a deadline; the timed-out work is asked to cancel.
    let stuck = Promise<Int, any Error>()
    stuck.future.onCancellationRequested { stuck.failure(FuturesError.cancelled) }
    let limited = stuck.future.timeout(after: .milliseconds(5), clock: clock)
    if case .failure(let error) = await limited.settledResult() {
        print("timeout(after: 5 ms):", error)
    }
    if case .failure(let error) = await stuck.future.settledResult() {
        print("the stuck work was asked to cancel, and stopped with:", error)
    }

    // Typed futures keep "timed out" apart from their own failures.
    let typed = Future<Int, MirrorError>(error: .offline).timeout(after: .seconds(1), clock: clock)
    if case .failure(let own) = typed.error {
        print("typed timeout of a failed future: fails with its own error (\(own)), not timedOut")
    }

    // Retry a flaky operation: 3 attempts, exponential back-off (1 ms, 2 ms), only while transient.
    let attempts = SharedTally()
    let fetched = Future<String, MirrorError>.retry(
        3,
        backoff: .exponential(initial: .milliseconds(1)),
        clock: clock,
        while: { $0 == .offline }
    ) {
        let attempt = attempts.next()
        print("retry: attempt \(attempt)")
        return attempt < 3 ? Future(error: .offline) : Future(value: "page")
    }
    print("retry result:", await fetched.settledResult().readable)
}

/// The failures of the tour's pretend network; printed as a reader would say them.
enum MirrorError: Error, Equatable, CustomStringConvertible {
    case offline
    case notFound
    /// The request was asked to stop (it lost a race, or nobody wanted it any more).
    case cancelled

    var description: String {
        switch self {
        case .offline: return "offline"
        case .notFound: return "not found"
        case .cancelled: return "cancelled"
        }
    }
}

extension Result {
    /// "succeeded: value" or "failed: error", without module-qualified type names.
    var readable: String {
        switch self {
        case .success(let value): return "succeeded: \(value)"
        case .failure(let error): return "failed: \(error)"
        }
    }
}
