import Futures

extension BFTask where T == Void {
    /// A task that succeeds after `milliseconds` on `clock` (Bolts' `taskWithDelay:cancellationToken:`).
    ///
    /// The timer is the core's, on `clock` (the continuous clock unless you pass another, such as a test
    /// clock that you advance by hand): on the continuous clock it waits on a Dispatch timer and the task
    /// succeeds on a global dispatch queue; on another clock it waits in a Swift task sleeping on that
    /// clock and succeeds there. Continuations on ``BFExecutor/default`` start where it succeeds. If `cancellationToken` fires first, the task is
    /// cancelled at once (on the cancelling thread) and the timer is stopped and released; if the token is
    /// already cancelled, the task is cancelled from the start. A delay of 0 or less still completes
    /// asynchronously; delays longer than 10⁹ s are clamped. While it waits, the task is listed by the
    /// pending-futures report as `delay` at the caller's `file`:`line`.
    ///
    /// - Parameters:
    ///   - milliseconds: How long to wait on `clock`.
    ///   - cancellationToken: Cancels the task, and stops the timer, when it fires first.
    ///   - clock: The clock the timer sleeps on.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public init(
        delay milliseconds: Int,
        cancellationToken: BFCancellationToken? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        if cancellationToken?.isCancellationRequested == true {
            self = .cancelled()
            return
        }
        let future = Future<Void, any Error>.produced("delay", file: file, line: line)
        let registration = LockedBox<CancellationRegistration?>(nil)
        let timer = ClockTimer(after: .milliseconds(milliseconds), on: clock) {
            future.complete(.success(()))
            registration.withValue { taken -> CancellationRegistration? in
                defer { taken = nil }
                return taken
            }?.dispose()
        }
        if let cancellationToken {
            let observer = cancellationToken.onCancellationRequested {
                future.complete(.failure(FuturesError.cancelled))
                timer.cancel()
            }
            // The timer may have fired before the registration was stored: then it is disposed here.
            if !registration.withValue({ stored in
                guard !future.isCompleted else { return false }
                stored = observer
                return true
            }) {
                observer.dispose()
            }
        }
        self.init(future: future)
    }
}
