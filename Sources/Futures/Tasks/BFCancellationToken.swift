import Dispatch

/// Bolts' `BFCancellationToken`: the very same type as the library's ``CancellationToken``.
///
/// There is one cancellation mechanism in the library, so a Bolts token can be handed to any
/// producer that takes a ``CancellationToken`` (``Future/requestCancellation(when:)``,
/// ``BFTask/init(delay:cancellationToken:)``, your own functions) and vice versa.
public typealias BFCancellationToken = CancellationToken

/// Bolts' `BFCancellationTokenRegistration`: the same type as ``CancellationRegistration``;
/// ``CancellationRegistration/dispose()`` unregisters the observer.
public typealias BFCancellationTokenRegistration = CancellationRegistration

/// Bolts' `BFCancellationTokenSource`: the same type as ``CancellationSource``.
public typealias BFCancellationTokenSource = CancellationSource

extension CancellationToken {
    /// Bolts' spelling of ``onCancellationRequested(_:)``: registers `block` to run once when
    /// cancellation is requested (at once, on the calling thread, if it already was; otherwise on
    /// the thread that calls `cancel()`).
    ///
    /// - Returns: A registration; ``CancellationRegistration/dispose()`` unregisters `block`, which
    ///   then never starts.
    @discardableResult
    public func registerCancellationObserver(_ block: @escaping @Sendable () -> Void) -> BFCancellationTokenRegistration
    {
        onCancellationRequested(block)
    }
}

extension CancellationSource {
    /// Bolts' `cancelAfterDelay:` on a ``BFCancellationTokenSource``: cancels after `milliseconds`
    /// (on a global dispatch queue). Elsewhere prefer ``CancellationSource/cancel(after:clock:)``, which
    /// takes a `Duration` and a clock like every other time-based API of the library.
    ///
    /// - `0` cancels at once, on the calling thread.
    /// - `-1` (or any negative value) stops a cancellation scheduled earlier without scheduling one.
    /// - A new call replaces the one scheduled before it.
    ///
    /// A scheduled cancellation keeps the source alive until it fires; it does nothing if the source
    /// was cancelled or disposed meanwhile.
    public func cancel(afterDelay milliseconds: Int) {
        cancel(afterDelay: milliseconds) { milliseconds, work in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds), execute: work)
        }
    }

    /// ``cancel(afterDelay:)`` with the timer injected: `schedule` must run `work` once, after
    /// `milliseconds` (tests run it by hand instead of waiting).
    func cancel(
        afterDelay milliseconds: Int,
        schedule: (_ milliseconds: Int, _ work: @escaping @Sendable () -> Void) -> Void
    ) {
        let generation = delayGeneration.withValue { value -> Int in
            value += 1
            return value
        }
        stopDelayTimer(upTo: generation)?.cancel()  // a `cancel(after:clock:)` timer, if one is sleeping
        if milliseconds < 0 { return }
        if milliseconds == 0 {
            cancel()
            return
        }
        schedule(milliseconds) {
            if self.delayGeneration.value == generation {
                self.cancel()
            }
        }
    }
}
