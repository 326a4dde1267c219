import Foundation
import Futures

extension Task {
    /// A task that succeeds after `delay` seconds (Bolts-Swift's `withDelay`).
    ///
    /// The timer is a dispatch timer on a global queue: the task completes there, so continuations on
    /// ``Executor/default`` start on that queue. The delay is rounded to whole milliseconds and clamped to
    /// 0…10¹² ms; one that is not finite (`.infinity`, `.nan`) waits for ever.
    public static func withDelay(_ delay: TimeInterval) -> Task<Void> {
        let future = Future<Void, any Error>()
        let timer = DelayTimer()
        let milliseconds = delay.isFinite ? Int(min(max(delay * 1000, 0), 1e12).rounded()) : Int(1e12)
        timer.start(after: milliseconds) {
            future.complete(.success(()))
            timer.cancel()
        }
        return Task<Void>(future: future)
    }
}
