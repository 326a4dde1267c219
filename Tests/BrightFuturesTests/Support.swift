import BrightFutures
import Foundation

/// A thread-safe counter that `@Sendable` closures can capture (the README's `var`s).
final class Counter: @unchecked Sendable {
    // Safe: `count` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var count: Int

    init(_ value: Int = 0) { count = value }

    @discardableResult
    func increment(by delta: Int = 1) -> Int {
        lock.withLock {
            count += delta
            return count
        }
    }

    var value: Int { lock.withLock { count } }
}

/// Collects values from many threads, in the order they arrive.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    // Safe: `stored` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) { lock.withLock { stored.append(value) } }

    var values: [Value] { lock.withLock { stored } }
}

/// A context function that counts the tasks it runs, and runs them at once.
final class CountingContext: Sendable {
    let count = Counter()

    var function: ExecutionContext {
        { [count] task in
            count.increment()
            task()
        }
    }
}
