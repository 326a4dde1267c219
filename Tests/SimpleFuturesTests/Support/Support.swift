import Dispatch
import Foundation
import SimpleFutures
import Synchronization
import Testing

/// Waits for `future`'s result without blocking a thread.
func result<T>(of future: Future<T>) async -> Try<T> {
    await withCheckedContinuation { continuation in
        future.onComplete(context: ImmediateContext()) { continuation.resume(returning: $0) }
    }
}

/// Waits for `future`'s value; fails the test if it failed.
func awaitValue<T>(of future: Future<T>, sourceLocation: SourceLocation = #_sourceLocation) async -> T? {
    let outcome = await result(of: future)
    if case .failure(let error) = outcome { Issue.record("failed with \(error)", sourceLocation: sourceLocation) }
    return outcome.value
}

/// Waits for `future`'s error; fails the test if it succeeded.
func awaitError<T>(of future: Future<T>, sourceLocation: SourceLocation = #_sourceLocation) async -> (any Error)? {
    let outcome = await result(of: future)
    if case .success(let value) = outcome { Issue.record("succeeded with \(value)", sourceLocation: sourceLocation) }
    return outcome.error
}

/// Waits for the first `count` results of `stream` (the kept ones, then new ones).
func results<T>(of stream: FutureStream<T>, count: Int) async -> [Try<T>] {
    let token = CancelToken()
    let collected = Mutex<[Try<T>]>([])
    let all: [Try<T>] = await withCheckedContinuation { continuation in
        stream.onComplete(context: ImmediateContext(), cancelToken: token) { result in
            let done: [Try<T>]? = collected.withLock { list in
                list.append(result)
                return list.count == count ? list : nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
    stream.cancel(token)
    return all
}

/// A thread-safe counter for callbacks.
final class Counter: Sendable {
    private let count = Atomic(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// An object whose deallocation the tests watch through a weak reference.
final class Tracked: Sendable {}

/// The errors of the tests.
enum TestError: Error, Equatable {
    case failed, recovered, mapped
}
