import Dispatch
import Foundation

extension Future {
    /// A future that completes with this future's result, `interval` after this future completed.
    ///
    /// The delay starts when this future completes (not when `delay` is called). It is always
    /// asynchronous, even for a zero interval or an already completed future. The returned future is
    /// completed on the main queue when `delay` is called on the main thread, otherwise on a global
    /// queue (BrightFutures' rule; the default-context override does not change it). Failures are
    /// delayed like values. Cancellation requests are not forwarded.
    ///
    /// ```swift
    /// Future<Int, Never>(value: 3).delay(.seconds(2)).andThen { result in
    ///     // runs two seconds later
    /// }
    /// ```
    public func delay(_ interval: DispatchTimeInterval) -> Future<T, E> {
        delay(delayQueue(isMainThread: Thread.isMainThread), interval: interval)
    }

    /// A future that completes with this future's result on `queue`, `interval` after this future
    /// completed.
    ///
    /// Always asynchronous (`queue.asyncAfter`), even for a zero interval: pass the main queue to mean
    /// "on the next turn of the main run loop". Failures are delayed like values.
    public func delay(_ queue: DispatchQueue, interval: DispatchTimeInterval) -> Future<T, E> {
        let future = Future<T, E>()
        whenComplete(immediateExecutionContext) { result in
            queue.asyncAfter(deadline: .now() + interval) { future.complete(result) }
        }
        return future
    }
}

/// The queue ``Future/delay(_:)`` completes on: the main queue when called on the main thread, else a
/// global queue (BrightFutures' rule). A function of its input so tests can check both branches.
func delayQueue(isMainThread: Bool) -> DispatchQueue {
    isMainThread ? DispatchQueue.main : DispatchQueue.global()
}
