import Foundation
import Futures
import PropertyBased

// Shared pieces of the property-based suites ("The contract, proven"). Everything here uses
// the public API only, so the properties keep holding whatever the core looks like inside.

/// The error type of the futures under test: comparable, so results can be compared with `==`.
struct PropError: Error, Equatable, Hashable, Sendable {
    let code: Int
}

/// The future type the laws are stated for.
typealias PropFuture = Future<Int, PropError>

/// A value behind a lock, for recording what callbacks saw from any thread.
///
/// Built on `NSLock` (a `pthread_mutex_t` on Linux) rather than `Synchronization.Mutex`, whose
/// contended path is invisible to ThreadSanitizer (see TOOLING.md).
final class PropLocked<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `value` is only read or written between `lock.lock()` and `lock.unlock()`
    // (in `withLock`), and values are handed in and out by copy.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}

/// An object whose deallocation a property observes through a weak reference.
final class PropTracked: Sendable {}

/// Holds promises that are still to be completed, and completes them in a generated order.
///
/// `make(_:pending:)` gives either an already completed future or a promise's future whose result is
/// remembered here; `drain(order:)` then completes the pending ones one at a time (picked with the
/// generated numbers), including those created while draining (a `flatMap` closure that returns a
/// pending future). All on the calling thread, so on the immediate context every step is synchronous.
final class PropPendingWork: Sendable {
    private let pending = PropLocked<[(promise: Promise<Int, PropError>, result: Result<Int, PropError>)]>([])

    /// A future with `result`: completed now, or (if `pending`) later, by `drain(order:)`.
    func make(_ result: Result<Int, PropError>, pending isPending: Bool) -> PropFuture {
        guard isPending else { return PropFuture(result: result) }
        let promise = Promise<Int, PropError>()
        pending.withLock { $0.append((promise, result)) }
        return promise.future
    }

    var isEmpty: Bool { pending.withLock { $0.isEmpty } }

    /// Completes every pending promise, including those created meanwhile, picking the next one with
    /// `order` (cycled). Returns how many were completed.
    @discardableResult
    func drain(order: [Int]) -> Int {
        var step = 0
        while true {
            let next = pending.withLock { list -> (promise: Promise<Int, PropError>, result: Result<Int, PropError>)? in
                guard !list.isEmpty else { return nil }
                let pick = order.isEmpty ? 0 : order[step % order.count]
                return list.remove(at: pick % list.count)
            }
            guard let next else { return step }
            step += 1
            next.promise.complete(next.result)  // outside the lock: this runs the callbacks
        }
    }
}

/// A generated `Int -> Future<Int, PropError>` for the monad laws: a linear function that fails on
/// multiples of `failDivisor`, whose future is completed at once or later (`pending`).
struct PropKleisli: Sendable, CustomStringConvertible {
    let mul: Int
    let add: Int
    let failDivisor: Int
    let pending: Bool

    func result(_ x: Int) -> Result<Int, PropError> {
        x % failDivisor == 0 ? .failure(PropError(code: x &+ add)) : .success(x &* mul &+ add)
    }

    func callAsFunction(_ x: Int, _ work: PropPendingWork) -> PropFuture {
        work.make(result(x), pending: pending)
    }

    var description: String {
        "x -> \(pending ? "pending " : "")(x % \(failDivisor) == 0 ? fail(x + \(add)) : x * \(mul) + \(add))"
    }
}

/// Generators shared by the property suites.
enum PropGen {
    /// A result: mostly successes, some failures.
    static var result: Generator<Result<Int, PropError>, some Sequence & SendableMetatype> {
        Gen.int(in: -1000...1000).asResult(
            withFailure: Gen.int(in: 0...50).map { PropError(code: $0) }, successRate: 0.7)
    }

    /// A pure `Int -> Int` (wrapping linear), as `(mul, add)`.
    static var linear: Generator<(mul: Int, add: Int), some Sequence & SendableMetatype> {
        zip(Gen.int(in: -5...5), Gen.int(in: -100...100)).map { (mul: $0, add: $1) }
    }

    /// A Kleisli arrow `Int -> Future<Int, PropError>`, completed at once or later.
    static var kleisli: Generator<PropKleisli, some Sequence & SendableMetatype> {
        zip(Gen.int(in: -5...5), Gen.int(in: -100...100), Gen.int(in: 2...7), Gen.bool).map {
            PropKleisli(mul: $0, add: $1, failDivisor: $2, pending: $3)
        }
    }

    /// The order in which pending promises are completed (cycled by `PropPendingWork.drain(order:)`).
    static var order: Generator<[Int], some Sequence & SendableMetatype> {
        Gen.int(in: 0...1000).array(of: 1...8)
    }
}
