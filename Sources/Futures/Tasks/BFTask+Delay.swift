import Dispatch

extension BFTask where T == Void {
    /// A task that succeeds after `milliseconds` (Bolts' `taskWithDelay:cancellationToken:`).
    ///
    /// The timer runs on a global dispatch queue; continuations on ``BFExecutor/default`` then run there.
    /// If `cancellationToken` fires first, the task is cancelled at once (on the cancelling thread)
    /// and the timer is cancelled and released; if the token is already cancelled, the task is
    /// cancelled from the start. A delay of 0 or less still completes asynchronously.
    public init(delay milliseconds: Int, cancellationToken: BFCancellationToken? = nil) {
        if cancellationToken?.isCancellationRequested == true {
            self = .cancelled()
            return
        }
        let future = Future<Void, any Error>()
        let timer = DelayTimer()
        let registration = LockedBox<CancellationRegistration?>(nil)
        timer.start(after: milliseconds) {
            future.complete(.success(()))
            registration.take()?.dispose()
            timer.cancel()
        }
        if let cancellationToken {
            registration.value = cancellationToken.onCancellationRequested {
                future.complete(.failure(FuturesError.cancelled))
                timer.cancel()
            }
            // The timer may have fired before the registration was stored.
            if future.isCompleted { registration.take()?.dispose() }
        }
        self.init(future: future)
    }
}

/// A one-shot dispatch timer whose handler is released when it fires or is cancelled.
package final class DelayTimer: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the only stored property is a GCD source, a thread-safe object
    // (its `cancel`, `setEventHandler`, `schedule` and `resume` may be called from any thread), and it
    // is never reassigned.
    private let source = DispatchSource.makeTimerSource(queue: .global())

    package init() {}

    package func start(after milliseconds: Int, _ handler: @escaping @Sendable () -> Void) {
        source.setEventHandler(handler: handler)
        source.schedule(deadline: .now() + .milliseconds(max(milliseconds, 0)))
        source.resume()
    }

    /// Stops the timer and releases its handler; idempotent.
    package func cancel() {
        source.cancel()
    }
}
