// Shared support for the tests of GUARANTEES.md: one file per clause, each clause run on every face built
// on the core (Future, Promise, Deferred, FutureStream, and Bolts' BFTask) and for both entry kinds (already
// completed when used, pending then completed later).

import Bolts
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Futures

// MARK: - Faces and entry kinds

/// A face of the one core, as the tests drive it.
enum GFace: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `Future(resolver:)` / `Future(value:)`, callbacks with `onComplete(_:callback:)`.
    case future
    /// `Promise`, callbacks on `promise.future`.
    case promise
    /// `BFTaskCompletionSource` / `BFTask(result:)`, callbacks as continuations on a `BFExecutor`.
    case bfTask
    /// A `Deferred` with one step (`map`), started once with `run()`; callbacks on the started future.
    case deferredRun
    /// A `Deferred` with one step (`map`); every callback is its own `execute(_:callback:)` (its own run).
    case deferredExecute
    /// `StreamPromise` / `FutureStream(value:)`, callbacks with `onComplete(context:completion:)`.
    case stream

    var testDescription: String { rawValue }

    /// The faces where one registration is one callback on one shared future (everything but
    /// `deferredExecute`, where each registration starts a separate run).
    static let sharedFaces: [GFace] = [.future, .promise, .bfTask, .deferredRun, .stream]
}

/// How the subject is met by the code under test.
enum GEntry: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Completed before anything is registered.
    case completed
    /// Pending while callbacks are registered, completed afterwards.
    case pendingThenCompleted

    var testDescription: String { rawValue }
}

/// One face met one way.
struct GCase: Sendable, CustomTestStringConvertible {
    let face: GFace
    let entry: GEntry

    var testDescription: String { "\(face.rawValue), \(entry.rawValue)" }

    static func cases(_ faces: [GFace] = GFace.allCases, _ entries: [GEntry] = GEntry.allCases) -> [GCase] {
        faces.flatMap { face in entries.map { GCase(face: face, entry: $0) } }
    }

    static let all = cases()
    static let shared = cases(GFace.sharedFaces)

    /// A subject of this face; completed with `value` now (`.completed`) or by ``GSubject/complete()``.
    func make(value: Int = 42) -> GSubject {
        GSubject(face: face, value: value, completedAtStart: entry == .completed)
    }
}

/// Completers handed out by a `Deferred`'s trunk: every run started before ``fire(_:)`` completes then, every
/// run started after it completes at once.
final class GCompleters: Sendable {
    private let state = LockedBox<(fired: Int?, waiting: [@Sendable (Result<Int, any Error>) -> Void])>(
        (nil, []))

    func add(_ complete: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        let fired = state.withValue { state -> Int? in
            if state.fired == nil { state.waiting.append(complete) }
            return state.fired
        }
        if let fired { complete(.success(fired)) }
    }

    func fire(_ value: Int) {
        let waiting = state.withValue { state -> [@Sendable (Result<Int, any Error>) -> Void] in
            guard state.fired == nil else { return [] }
            state.fired = value
            defer { state.waiting = [] }
            return state.waiting
        }
        for complete in waiting { complete(.success(value)) }
    }
}

/// The face-independent handle the clause tests drive: register callbacks, complete once.
final class GSubject: Sendable {
    let face: GFace
    let value: Int
    private let register: @Sendable (ExecutionContext, @escaping @Sendable (Result<Int, any Error>) -> Void) -> Void
    private let completeOnce: @Sendable () -> Void
    /// Tries a second completion with another value; `nil` where the face has no `try` form.
    let completeAgain: @Sendable (Int) -> Bool?
    /// The shared core cell, where the face has one (`nil` for `deferredExecute`).
    let cell: Future<Int, any Error>?
    // Keeps the write end alive while the test drives the subject (dropping it has its own outcome, G10).
    private let writer: (any Sendable)?

    init(face: GFace, value: Int, completedAtStart: Bool) {
        self.face = face
        self.value = value
        switch face {
        case .future:
            let completer = LockedBox<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
            let future: Future<Int, any Error> =
                completedAtStart ? Future(value: value) : Future { complete in completer.value = complete }
            register = { context, body in future.onComplete(context, callback: body) }
            completeOnce = { completer.value?(.success(value)) }
            completeAgain = { other in
                completer.value?(.success(other))
                return nil
            }
            cell = future
            writer = completer
        case .promise:
            let promise = Promise<Int, any Error>()
            if completedAtStart { promise.success(value) }
            register = { context, body in promise.future.onComplete(context, callback: body) }
            completeOnce = { promise.trySuccess(value) }
            completeAgain = { other in promise.trySuccess(other) }
            cell = promise.future
            writer = promise
        case .bfTask:
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
        case .deferredRun, .deferredExecute:
            let completers = GCompleters()
            let deferred: Deferred<Int, any Error> =
                completedAtStart
                ? Deferred<Int, any Error>.unit(value).map { $0 }
                : Deferred<Int, any Error> { complete in completers.add(complete) }.map { $0 }
            if face == .deferredRun {
                let started = deferred.run()
                register = { context, body in started.onComplete(context, callback: body) }
                cell = started
            } else {
                register = { context, body in deferred.execute(context, callback: body) }
                cell = nil
            }
            completeOnce = { completers.fire(value) }
            completeAgain = { _ in nil }
            writer = completers
        case .stream:
            let promise = StreamPromise<Int>()
            let stream = completedAtStart ? FutureStream(value: value) : promise.stream
            register = { context, body in stream.onComplete(context: context, completion: body) }
            let completed = LockedBox(completedAtStart)
            completeOnce = {
                // One value then the end, once: a stream would accept a second value.
                let first = completed.withValue { done in
                    defer { done = true }
                    return !done
                }
                if first {
                    promise.success(value)
                    promise.finish()
                }
            }
            completeAgain = { _ in nil }
            cell = nil
            writer = promise
        }
    }

    /// Registers `body` on `context` through this face's own callback API.
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

/// How long a test waits for what another thread or task does before it records a failure. Only a wrong
/// result (a deadlock, a lost wake-up, a leak) reaches it: a loaded machine with two cores, a sanitizer and
/// the other tests running in parallel can hold a runnable thread back for seconds, never for a minute.
let gPatience = 60

/// Runs `body` on a fresh thread and waits for it at most `seconds`; records an issue (instead of hanging the
/// suite) if it does not return in time. Returns whether it finished.
@discardableResult
func gFinishes(
    within seconds: Int = gPatience,
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

/// Waits until `condition` holds, letting other tasks run between checks; gives up (returns `false`) only
/// after ``gPatience``. No fixed sleep: it returns as soon as the condition holds.
func gEventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(gPatience)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// ``gEventually(_:)`` for a thread: runs `step` (yielding the processor, draining a queue) between checks.
@discardableResult
func gSpin(until condition: () -> Bool, step: () -> Void = { sched_yield() }) -> Bool {
    let deadline = ContinuousClock.now + .seconds(gPatience)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        step()
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

/// The suites of GUARANTEES.md, one per clause (`swift test --filter Guarantees`).
@Suite("Guarantees") enum Guarantees {}
