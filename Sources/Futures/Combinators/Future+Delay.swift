import Dispatch
import Foundation

extension Future {
    /// Creates a future that completes with `result` on a global queue, `delay` after this call
    /// (BrightFutures' `init(result:delay:)`).
    ///
    /// Always asynchronous, even for a zero or negative delay: the initializer never completes the future
    /// itself; a global queue does, once the delay has passed (with a zero delay that may be before the
    /// caller's next line runs). Callbacks registered on it run on their own contexts, as usual. A cancellation request
    /// does not shorten the delay (the result is already decided); it is ignored.
    ///
    /// ```swift
    /// let slow = Future<Int, Never>(value: 3, delay: .milliseconds(200))
    /// let fast = Future<Int, Never>(value: 1, delay: .milliseconds(10))
    /// [slow, fast].firstCompleted().onSuccess { print($0) }  // 1
    /// ```
    ///
    /// `file` and `line` (leave the defaults) name it `Future` at the caller's line in failure traces and
    /// the pending-futures report.
    public convenience init(
        result: Result<T, E>, delay: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(result: result, delay: delay, on: .global(), file: file, line: line)
    }

    /// ``init(result:delay:file:line:)`` on `queue` (tests pass a suspended queue to see the future pending).
    convenience init(
        result: Result<T, E>, delay: DispatchTimeInterval, on queue: DispatchQueue,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init()
        if FailureTracing.isOn { FailureTracing.produced(self, name: "Future", site: CallSite(file: file, line: line)) }
        ClockTimer(after: delay) { [self] in
            queue.async { self.complete(result) }
        }
    }

    /// Creates a future that succeeds with `value` on a global queue, `delay` after this call
    /// (BrightFutures' `init(value:delay:)`). See ``init(result:delay:file:line:)``.
    public convenience init(value: T, delay: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line) {
        self.init(result: .success(value), delay: delay, file: file, line: line)
    }

    /// Creates a future that fails with `error` on a global queue, `delay` after this call
    /// (BrightFutures' `init(error:delay:)`). See ``init(result:delay:file:line:)``.
    public convenience init(error: E, delay: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line) {
        self.init(result: .failure(error), delay: delay, file: file, line: line)
    }

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
    public func delay(_ interval: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line) -> Future<
        T, E
    > {
        delay(delayQueue(isMainThread: Thread.isMainThread), interval: interval, file: file, line: line)
    }

    /// A future that completes with this future's result on `queue`, `interval` after this future
    /// completed.
    ///
    /// Always asynchronous (the library's timer, then `queue.async`), even for a zero interval: pass the main queue to mean
    /// "on the next turn of the main run loop". Failures are delayed like values. A cancellation request
    /// on the returned future is passed on to this future while it is pending, as one of its consumers
    /// (GUARANTEES.md G8); once this future has completed, the delivery is already scheduled.
    public func delay(
        _ queue: DispatchQueue, interval: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, E> {
        let future = Future<T, E>()
        future.depend(on: self, link: .step("delay", file: file, line: line)) { result in
            ClockTimer(after: interval) { queue.async { future.complete(result) } }
        }
        return future
    }
}

/// The queue ``Future/delay(_:file:line:)`` completes on: the main queue when called on the main thread, else a
/// global queue (BrightFutures' rule). A function of its input so tests can check both branches.
func delayQueue(isMainThread: Bool) -> DispatchQueue {
    isMainThread ? DispatchQueue.main : DispatchQueue.global()
}
