import Dispatch
import Foundation

@testable import Futures

/// Names queues so a callback can tell, without crashing, which queue it runs on.
enum QueueName {
    static let key = DispatchSpecificKey<String>()

    /// Marks the main queue (idempotent) and returns it.
    static var main: DispatchQueue {
        DispatchQueue.main.setSpecific(key: key, value: "main")
        return DispatchQueue.main
    }

    /// A fresh serial queue carrying `name`.
    static func serial(_ name: String) -> DispatchQueue {
        let queue = DispatchQueue(label: name)
        queue.setSpecific(key: key, value: name)
        return queue
    }

    /// The name of the queue the caller runs on, or `nil` for an unnamed one (e.g. a global queue).
    static var current: String? {
        DispatchQueue.getSpecific(key: key)
    }
}

/// The calling thread's identity, stable while the thread lives (the address of its trampoline).
var currentThreadID: UInt {
    Trampoline.threadIdentity
}

/// An execution context function that counts the tasks it runs (inline).
final class CountingContext: Sendable {
    let count = Counter()
    var function: ExecutionContextFunction {
        { [count] task in
            count.increment()
            task()
        }
    }
}
