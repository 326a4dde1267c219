import Dispatch
import Synchronization

/// The naive reference future of issue 10: one `Mutex`, an array of closures, no trampoline, no turns,
/// no cancellation, no dropped-promise detection. It is not a competitor (it is not stack-safe: a long
/// chain of pending `flatMap`s overflows the stack, so W4 is not run for it); it shows the cost floor a
/// simple design sets. Where it is faster than `Futures`, our design costs more than it gives. Everything is
/// `@inlinable`, so that clients get it specialised, as they get the hot paths of `Futures`.
public final class NaiveFuture<T: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var result: T?
        @usableFromInline var callbacks: [@Sendable (T) -> Void] = []
        @inlinable init(result: T? = nil) { self.result = result }
    }
    @usableFromInline let state: Mutex<State>

    /// A pending future.
    @inlinable public init() { state = Mutex(State()) }
    /// A completed future.
    @inlinable public init(value: T) { state = Mutex(State(result: value)) }

    /// Completes the future (the first call wins) and runs the callbacks on this thread, in order.
    @inlinable
    public func complete(_ value: T) {
        let callbacks: [@Sendable (T) -> Void]? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = value
            defer { state.callbacks = [] }
            return state.callbacks
        }
        callbacks?.forEach { $0(value) }
    }

    /// Runs `body` with the value: now if completed, else on the completing thread.
    @inlinable
    public func onComplete(_ body: @escaping @Sendable (T) -> Void) {
        let ready: T? = state.withLock { state in
            if let result = state.result { return result }
            state.callbacks.append(body)
            return nil
        }
        if let ready { body(ready) }
    }

    /// A future of `transform` applied to the value, run where the value arrives, or on `queue` if given.
    @inlinable
    public func map<U: Sendable>(
        on queue: DispatchQueue? = nil,
        _ transform: @escaping @Sendable (T) -> U
    ) -> NaiveFuture<U> {
        let next = NaiveFuture<U>()
        onComplete { value in
            if let queue { queue.async { next.complete(transform(value)) } } else { next.complete(transform(value)) }
        }
        return next
    }

    /// A future of the future `transform` returns (not stack-safe: each level recurses).
    @inlinable
    public func flatMap<U: Sendable>(_ transform: @escaping @Sendable (T) -> NaiveFuture<U>) -> NaiveFuture<U> {
        let next = NaiveFuture<U>()
        onComplete { value in transform(value).onComplete { next.complete($0) } }
        return next
    }

    /// Blocks the calling thread until the value is there.
    @inlinable
    public func wait() -> T {
        let done = DispatchSemaphore(value: 0)
        onComplete { _ in done.signal() }
        done.wait()
        return state.withLock { $0.result! }
    }
}

extension Array {
    /// The naive `sequence()`: one future of every value, in order, once all are there.
    @inlinable
    public func naiveSequence<T: Sendable>() -> NaiveFuture<[T]> where Element == NaiveFuture<T> {
        let all = NaiveFuture<[T]>()
        let slots = Slots<T>(count: count)
        if isEmpty { all.complete([]) }
        for (index, future) in enumerated() {
            future.onComplete { value in
                let done: [T]? = slots.state.withLock { slots in
                    slots.values[index] = value
                    slots.missing -= 1
                    return slots.missing == 0 ? slots.values.map { $0! } : nil
                }
                if let done { all.complete(done) }
            }
        }
        return all
    }
}

/// The slots of `naiveSequence()`: one per input, and how many are still missing.
@usableFromInline
final class Slots<T: Sendable>: Sendable {
    @usableFromInline let state: Mutex<(values: [T?], missing: Int)>
    @inlinable init(count: Int) { state = Mutex((values: [T?](repeating: nil, count: count), missing: count)) }
}
