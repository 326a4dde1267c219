import Dispatch
import Foundation

/// The kinds of thread a depth test runs on: each has its own stack size and its own trampoline.
enum StackKind: String, CaseIterable, Sendable {
    /// A Swift `Task` (the cooperative pool).
    case swiftTask
    /// A block on a global dispatch queue.
    case dispatchQueue
    /// A plain `Thread` with the default stack size.
    case thread

    /// Runs `body` on a fresh stack of this kind and returns its result.
    func run<R: Sendable>(_ body: @escaping @Sendable () -> R) async -> R {
        switch self {
        case .swiftTask:
            return await Task.detached { body() }.value
        case .dispatchQueue:
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: body()) }
            }
        case .thread:
            return await withCheckedContinuation { continuation in
                let thread = Thread { continuation.resume(returning: body()) }
                thread.start()
            }
        }
    }
}
