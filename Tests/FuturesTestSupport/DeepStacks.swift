// Support shared by every test target: the depth of the stack-safety tests, the kinds of thread they run
// on (one gate for all of them, so that two deep runs never hold the cooperative pool's threads at once,
// whichever target they come from), and the hang guard. Each target re-exports this module from its
// Support folder.

import Dispatch
import Foundation
import Testing

/// How many steps the depth tests take: 1,000,000 (GUARANTEES.md G5), unless `FUTURES_TEST_DEPTH` says
/// otherwise. CI's sanitizer runs set it lower: stack safety is proven by the plain run, and a sanitized
/// million-step chain would take most of CI's time without checking anything more.
public let testDepth: Int = ProcessInfo.processInfo.environment["FUTURES_TEST_DEPTH"].flatMap(Int.init) ?? 1_000_000

/// The depth of the tests whose steps are heavier than a future's (streams, long collections): 100,000 —
/// 2,000 times the trampoline's frame budget, so an unbounded recursion would still overflow any thread's
/// stack — or ``testDepth`` when that is lower (sanitizer runs).
public let heavyTestDepth = min(100_000, testDepth)

/// The kinds of thread a depth test runs on: each has its own stack size and its own trampoline.
public enum StackKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A Swift `Task` (the cooperative pool).
    case swiftTask
    /// A block on a dispatch queue.
    case dispatchQueue
    /// A plain `Thread` with the default stack size (the clause is about ordinary threads).
    case plainThread

    /// The kind's name, as test reports show it.
    public var testDescription: String { rawValue }

    /// Runs `body` on a fresh stack of this kind and returns its result.
    ///
    /// Deep runs take turns through ``DepthGate`` (waiting without blocking a thread): on a 2-core machine
    /// the cooperative pool has two threads, and two million-step runs holding both would starve every
    /// other async test.
    public func run<R: Sendable>(_ body: @escaping @Sendable () -> R) async -> R {
        await DepthGate.shared.acquire()
        let result: R
        switch self {
        case .swiftTask:
            result = await Task.detached { body() }.value
        case .dispatchQueue:
            result = await withCheckedContinuation { continuation in
                DispatchQueue(label: "futures.tests.deep").async { continuation.resume(returning: body()) }
            }
        case .plainThread:
            result = await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: body()) }.start()
            }
        }
        await DepthGate.shared.release()
        return result
    }
}

/// Lets one deep run at a time hold a thread; the others wait without blocking one.
actor DepthGate {
    static let shared = DepthGate()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// Whether this run is under a sanitizer (CI sets `FUTURES_SANITIZED=1` for its ThreadSanitizer and
/// AddressSanitizer runs). Everything is 5–15 times slower there, and the long synchronous tests hold the
/// cooperative pool's two threads (on a 2-core machine) for minutes, so a quick async test may wait that
/// long before it even starts.
public let sanitizedRun = ProcessInfo.processInfo.environment["FUTURES_SANITIZED"] == "1"

extension Trait where Self == TimeLimitTrait {
    /// The guard against a hang: 10 minutes (or `minutes`, if longer) in a plain run, 30 under a sanitizer
    /// (see ``sanitizedRun``). It catches a future that never completes; it is not a timing goal.
    ///
    /// Why not one minute: a test's limit runs from its start, and an async test needs a thread of the
    /// cooperative pool (two on a 2-core machine) each time it resumes. The million-step runs inside a
    /// Swift `Task` (``StackKind/swiftTask``) hold one of them for as long as they take, so on a machine
    /// that is busy with something else quick async tests have waited over a minute for the other one
    /// (103 of them failed so in one run of `.ci/run` next to two release builds). A hang still fails.
    public static func hangGuard(minutes: Int = 10) -> Self {
        .timeLimit(.minutes(sanitizedRun ? max(30, minutes) : max(10, minutes)))
    }
}
