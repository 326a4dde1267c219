import Futures

/// Bolts' `BFCancellationToken`: the very same type as the core's `CancellationToken`.
///
/// There is one cancellation mechanism in the library, so a Bolts token can be handed to any
/// producer that takes a `CancellationToken` (`Future.requestCancellation(when:)`,
/// ``BFTask/init(delay:cancellationToken:clock:file:line:)``, your own functions) and vice versa.
public typealias BFCancellationToken = CancellationToken

/// Bolts' `BFCancellationTokenRegistration`: the same type as the core's `CancellationRegistration`;
/// `dispose()` unregisters the observer.
public typealias BFCancellationTokenRegistration = CancellationRegistration

/// Bolts' `BFCancellationTokenSource`: the same type as the core's `CancellationSource`.
public typealias BFCancellationTokenSource = CancellationSource

extension CancellationToken {
    /// Bolts' spelling of `onCancellationRequested(_:)`: registers `block` to run once when
    /// cancellation is requested (at once, on the calling thread, if it already was; otherwise on
    /// the thread that calls `cancel()`).
    ///
    /// - Returns: A registration; `dispose()` unregisters `block`, which then never starts.
    @discardableResult
    public func registerCancellationObserver(_ block: @escaping @Sendable () -> Void) -> BFCancellationTokenRegistration
    {
        onCancellationRequested(block)
    }
}

extension CancellationSource {
    /// Bolts' `cancelAfterDelay:` on a ``BFCancellationTokenSource``: cancels once `milliseconds` have
    /// passed on `clock`, through the core's `cancel(after:clock:)` (whose timer sleeps on the clock, so a
    /// test passes a test clock and advances it).
    ///
    /// - `0` cancels at once, on the calling thread.
    /// - `-1` (or any negative value) stops a cancellation scheduled earlier without scheduling one.
    /// - A new call (this one or `cancel(after:clock:)`) replaces the one scheduled before it.
    ///
    /// The observers run on the timer's Swift task, as with `cancel()`. A scheduled cancellation keeps
    /// the source alive until it fires; it does nothing if the source was cancelled or disposed meanwhile.
    public func cancel(afterDelay milliseconds: Int, clock: some Clock<Duration> = ContinuousClock()) {
        if milliseconds < 0 {
            stopScheduledCancellation()
        } else {
            cancel(after: .milliseconds(milliseconds), clock: clock)
        }
    }
}
