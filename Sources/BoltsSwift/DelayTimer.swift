import Dispatch

/// A one-shot dispatch timer whose handler is released when it fires or is cancelled (`Task.withDelay`).
final class DelayTimer: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the only stored property is a GCD source, a thread-safe object
    // (its `cancel`, `setEventHandler`, `schedule` and `resume` may be called from any thread), and it
    // is never reassigned.
    private let source = DispatchSource.makeTimerSource(queue: .global())

    func start(after milliseconds: Int, _ handler: @escaping @Sendable () -> Void) {
        source.setEventHandler(handler: handler)
        source.schedule(deadline: .now() + .milliseconds(max(milliseconds, 0)))
        source.resume()
    }

    /// Stops the timer and releases its handler; idempotent.
    func cancel() {
        source.cancel()
    }
}
