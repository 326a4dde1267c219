// Shared support for the tests of GUARANTEES.md on the Bolts face (`BFTaskCompletionSource`, `BFTask`): each
// clause that the core's suites (Tests/FuturesTests/Guarantees) run on every face of the core runs here on
// this one, for both entry kinds (already completed when used, pending then completed later).

import Bolts
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Futures

// MARK: - The face and entry kinds

/// The face these suites drive: `BFTaskCompletionSource` / `BFTask`, callbacks as continuations on a
/// `BFExecutor` wrapping the context.
enum GFace: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case bfTask

    var testDescription: String { rawValue }

    static let sharedFaces: [GFace] = [.bfTask]
}

/// How the subject is met by the code under test.
enum GEntry: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Completed before anything is registered.
    case completed
    /// Pending while callbacks are registered, completed afterwards.
    case pendingThenCompleted

    var testDescription: String { rawValue }
}

/// The face met one way.
struct GCase: Sendable, CustomTestStringConvertible {
    let face: GFace
    let entry: GEntry

    var testDescription: String { "\(face.rawValue), \(entry.rawValue)" }

    static func cases(_ faces: [GFace] = GFace.allCases, _ entries: [GEntry] = GEntry.allCases) -> [GCase] {
        faces.flatMap { face in entries.map { GCase(face: face, entry: $0) } }
    }

    static let all = cases()
    static let shared = cases(GFace.sharedFaces)

    /// A subject; completed with `value` now (`.completed`) or by ``GSubject/complete()``.
    func make(value: Int = 42) -> GSubject {
        GSubject(face: face, value: value, completedAtStart: entry == .completed)
    }
}

/// The handle the clause tests drive: register callbacks (continuations), complete once.
final class GSubject: Sendable {
    let face: GFace
    let value: Int
    private let register: @Sendable (ExecutionContext, @escaping @Sendable (Result<Int, any Error>) -> Void) -> Void
    private let completeOnce: @Sendable () -> Void
    /// Tries a second completion with another value (`trySet(result:)`).
    let completeAgain: @Sendable (Int) -> Bool?
    /// The task's core cell.
    let cell: Future<Int, any Error>?
    // Keeps the source alive while the test drives the subject (dropping it has its own outcome, G10).
    private let writer: (any Sendable)?

    init(face: GFace, value: Int, completedAtStart: Bool) {
        self.face = face
        self.value = value
        let source = BFTaskCompletionSource<Int>()
        if completedAtStart { source.set(result: value) }
        let task = source.task
        register = { context, body in
            task.continueWith(executor: BFExecutor(context: context)) { (done: BFTask<Int>) -> Void in
                body(done.future.result!)
            }
        }
        completeOnce = { source.trySet(result: value) }
        completeAgain = { other in source.trySet(result: other) }
        cell = task.future
        writer = source
    }

    /// Registers `body` on `context` as a continuation.
    func onComplete(_ context: ExecutionContext, _ body: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        register(context, body)
    }

    /// Completes the subject with ``value`` (does nothing if it was created completed).
    func complete() {
        completeOnce()
    }
}

// MARK: - Small thread-safe helpers

/// A thread-safe counter.
final class GCounter: Sendable {
    private let storage = Atomic<Int>(0)
    @discardableResult
    func increment() -> Int { storage.add(1, ordering: .sequentiallyConsistent).newValue }
    var value: Int { storage.load(ordering: .sequentiallyConsistent) }
}

/// Collects values from many threads, in arrival order (a library `LockedBox`, which TSan can see).
final class GLog<Value: Sendable>: Sendable {
    private let storage = LockedBox<[Value]>([])
    func append(_ value: Value) { storage.withValue { $0.append(value) } }
    var values: [Value] { storage.value }
}

/// Something to capture, watched through a weak reference.
final class GProbe: Sendable {}

/// Holds one reference that a callback can drop (to make a callback release the last reference).
final class GHolder<Value: AnyObject & Sendable>: Sendable {
    private let storage: LockedBox<Value?>
    init(_ value: Value) { storage = LockedBox(value) }
    func drop() { storage.withValue { held in _ = held.take() } }
    var isEmpty: Bool { storage.value == nil }
    func peek() -> Value? { storage.value }
}

/// The calling thread's identity (the address of its trampoline, which lives as long as the thread).
var gThreadID: UInt { Trampoline.threadIdentity }

/// A serial queue whose blocks can tell that they run on it.
final class GQueue: Sendable {
    private static let key = DispatchSpecificKey<ObjectIdentifier>()
    let queue: DispatchQueue

    init(_ label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
    }

    var context: ExecutionContext { queue.context }
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self) }

    /// Returns once every block submitted so far has run.
    func drain() { queue.sync {} }
}

/// The number of entries a future stores while pending: `live` excludes removed entries (tombstones).
func gEntries<T, E>(_ future: Future<T, E>) -> (live: Int, stored: Int) {
    future.lock.lock()
    defer { future.lock.unlock() }
    let list = future.state.pendingEntries
    return (list.liveCount, list.count)
}

// MARK: - Running on a given kind of thread, with a deadline

/// The three kinds of thread the stack-safety clause names (the suite's shared runner).
typealias GRunner = StackKind

/// Runs `body` on a fresh thread and waits for it at most `seconds`; records an issue (instead of hanging the
/// suite) if it does not return in time. Returns whether it finished.
@discardableResult
func gFinishes(
    within seconds: Int = 10,
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () -> Void
) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    if done.wait(timeout: .now() + .seconds(seconds)) == .timedOut {
        Issue.record("\(what): did not finish within \(seconds) s (deadlock)", sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// Waits (bounded) until `condition` holds, letting other threads and tasks progress; no fixed sleep.
func gEventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Errors the clause tests complete futures with.
enum GError: Error, Equatable {
    case failed(Int)
}

/// Collects the diagnostics reported while `body` runs on this task.
func gDiagnostics(_ body: () throws -> Void) rethrows -> [FuturesDiagnostic] {
    let log = GLog<FuturesDiagnostic>()
    try FuturesDiagnostics.withHandler({ log.append($0) }, operation: body)
    return log.values
}

/// Runs `body`, returning what it returns and the diagnostics reported meanwhile on this task.
func gDiagnosing<R>(_ body: () throws -> R) rethrows -> (R, [FuturesDiagnostic]) {
    let log = GLog<FuturesDiagnostic>()
    let value = try FuturesDiagnostics.withHandler({ log.append($0) }, operation: body)
    return (value, log.values)
}

/// The clauses of GUARANTEES.md on the Bolts face, one suite per clause (`swift test --filter BoltsTests.Guarantees`).
@Suite("Guarantees on the Bolts face") enum Guarantees {}

/// Completes a promise and re-enters a future from its `deinit`: if the library released it under a lock,
/// re-entering would spin forever.
final class GReentrantOnDeinit: Sendable {
    let future: Future<Int, any Error>
    let promise: Promise<Int, any Error>
    let log: GLog<String>

    init(future: Future<Int, any Error>, promise: Promise<Int, any Error>, log: GLog<String>) {
        self.future = future
        self.promise = promise
        self.log = log
    }

    deinit {
        let log = self.log
        future.onComplete(immediateExecutionContext) { _ in log.append("registered from deinit") }
        future.requestCancellation()
        _ = future.isCompleted
        promise.trySuccess(2)
        log.append("deinit")
    }
}

extension Result {
    /// Whether this is a failure with `FuturesError.brokenPromise`.
    var failureIsBrokenPromise: Bool {
        if case .failure(let error) = self { return (error as? FuturesError) == .brokenPromise }
        return false
    }
}
