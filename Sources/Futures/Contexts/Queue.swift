import Dispatch

/// SimpleFutures' small wrapper around a dispatch queue.
///
/// ```swift
/// let queue = Queue("us.gnos.myqueue")       // a serial queue
/// queue.sync { /* … */ }                      // run and wait
/// let value = queue.sync { 42 }               // run, wait, return a value
/// queue.async { /* … */ }                     // run later
/// queue.delay(10.0) { /* … */ }               // run in ten seconds
/// ```
///
/// `Queue` only decides where a block runs; wrap it in a context with `QueueContext(queue:)` (an
/// ``ExecutionContext``) to run callbacks on it.
public struct Queue: Sendable {
    /// The main queue.
    public static let main = Queue(DispatchQueue.main)
    /// The global concurrent queue of default quality of service.
    public static let global = Queue(DispatchQueue.global())

    /// The dispatch queue this wrapper runs blocks on.
    public let queue: DispatchQueue

    /// Creates a new **serial** queue named `label`.
    public init(_ label: String) {
        self.queue = DispatchQueue(label: label)
    }

    /// Wraps an existing dispatch queue.
    public init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    /// Runs `block` on the queue and waits for it; returns what `block` returns (or rethrows its error).
    ///
    /// As with `DispatchQueue.sync`, calling this from a block already running on the same serial
    /// queue deadlocks (GCD traps on it on Apple platforms).
    @discardableResult
    public func sync<R>(_ block: () throws -> R) rethrows -> R {
        try queue.sync(execute: block)
    }

    /// Runs `block` on the queue, asynchronously; returns at once.
    public func async(_ block: @escaping @Sendable () -> Void) {
        queue.async(execute: block)
    }

    /// Runs `request` on the queue once `seconds` have passed (at once if `seconds` is zero or negative).
    ///
    /// `request` runs with the trace context current here (under the `ServiceContext` trait).
    public func delay(_ seconds: Double, request: @escaping @Sendable () -> Void) {
        // A `Duration` from a `Double` counts in 64 bits on every platform (no `Int` nanoseconds, which
        // would cap a delay near 2 s where `Int` has 32 bits); the library's one timer clamps it.
        let wait: Duration = seconds > 0 ? .seconds(min(seconds, 1e9)) : .zero
        #if ServiceContext
            // The timer's body has this context, but `queue.async` does not carry it on.
            let request = ContextTravel.bound(request)
        #endif
        ClockTimer(after: wait, on: ContinuousClock()) { [queue] in queue.async(execute: request) }
    }
}
