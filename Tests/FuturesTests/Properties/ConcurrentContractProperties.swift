import Dispatch
import Futures
import PropertyBased
import Testing

// Random interleavings of complete / register / cancel / await / drop on a few futures, run from four
// threads at once, checked against a simple model of the documented contract:
// - a future completes once: exactly one completion attempt wins, and every observer sees its result;
// - a callback runs exactly once, unless `cancel(token)` reported it cancelled (then never), or its
//   future was abandoned (never completed: then never);
// - callbacks one thread registered on one future and one serial queue run in registration order;
// - every waiter returns the result (or, on an abandoned future, stops when its task is cancelled);
// - at the end every future and everything a callback captured is released.

/// One step of a thread's script. Future indices are taken modulo the script's future count.
private enum Op: Sendable, CustomStringConvertible {
    /// `promise.tryComplete(result)` (skipped on an abandoned future).
    case complete(future: Int, result: Result<Int, PropError>)
    /// `onComplete` on context 0 (immediate), 1 or 2 (two serial queues), with its own token or none.
    case register(future: Int, context: Int, withToken: Bool)
    /// `future.cancel(token)` for the `target`-th registration made with a token (modulo their count).
    case cancel(target: Int)
    /// A task that awaits the future (`get(onTaskCancellation: .stopWaiting)`).
    case await(future: Int)
    /// The thread drops its own reference to the future; its later steps on that future are skipped.
    case drop(future: Int)

    var description: String {
        switch self {
        case .complete(let future, let result): "complete(\(future), \(result))"
        case .register(let future, let context, let withToken):
            "register(\(future), \(["immediate", "queueA", "queueB"][context])\(withToken ? ", token" : ""))"
        case .cancel(let target): "cancel(#\(target))"
        case .await(let future): "await(\(future))"
        case .drop(let future): "drop(\(future))"
        }
    }
}

private struct Script: Sendable, CustomStringConvertible {
    let futureCount: Int
    /// Abandoned futures are never completed: their promise is dropped at the end.
    let abandoned: [Bool]
    let threads: [[Op]]

    var description: String {
        "\(futureCount) futures, abandoned \(abandoned.prefix(futureCount)), threads \(threads)"
    }
}

private var ops: Generator<Op, some Sequence & SendableMetatype> {
    zip(Gen.int(in: 0...9), Gen.int(in: 0...2), Gen.int(in: 0...2), PropGen.result, Gen.bool, Gen.int(in: 0...1000))
        .map { kind, future, context, result, withToken, target -> Op in
            switch kind {
            case 0...1: .complete(future: future, result: result)
            case 2...5: .register(future: future, context: context, withToken: withToken)
            case 6...7: .cancel(target: target)
            case 8: .await(future: future)
            default: .drop(future: future)
            }
        }
}

private var scripts: Generator<Script, some Sequence & SendableMetatype> {
    zip(Gen.int(in: 1...3), Gen.bool(0.25).array(of: 3), ops.array(of: 2...16).array(of: 4))
        .map { Script(futureCount: $0, abandoned: $1, threads: $2) }
}

/// A registration the script makes, numbered in script order (so increasing within one thread).
private struct Registration {
    let thread: Int
    let future: Int
    let context: Int
    let token: CancelToken?
}

private struct WeakTracked {
    weak var object: PropTracked?
}

private struct WeakFuture {
    weak var object: PropFuture?
}

/// Hands a future to an awaiting task, which takes it out, so that the box does not keep it alive.
private final class FutureBox: Sendable {
    private let future: PropLocked<PropFuture?>
    init(_ future: PropFuture) { self.future = PropLocked(future) }
    func take() -> PropFuture? { future.withLock { $0.take() } }
}

/// Awaits the future in `box`; the future is released when this function returns, before the task ends.
private func awaitReleasing(_ box: FutureBox) async -> Result<Int, any Error> {
    guard let future = box.take() else { return .failure(PropError(code: -999)) }
    do {
        return .success(try await future.get(onTaskCancellation: .stopWaiting))
    } catch {
        return .failure(error)
    }
}

/// What one run of a script observed.
private struct Observed {
    var registered: Set<Int> = []
    var cancelled: Set<Int> = []
    var runs: [Int: [Result<Int, PropError>]] = [:]
    var queueLogs: [[Int]] = [[], []]
    var wins: [Int: [Result<Int, PropError>]] = [:]
}

/// Everything one run of a script owns; released when the run returns.
private struct Run {
    let futureCount: Int
    let abandoned: [Bool]
    let registrations: [Registration]
    let promises: [Promise<Int, PropError>]
    let observed: Observed
    let captures: [WeakTracked]
    let awaits: [(future: Int, task: Task<Result<Int, any Error>, Never>)]
}

/// The synchronous part of a run: the four threads, then completing what they left pending, waiting
/// for the callbacks and draining the queues.
private func runThreads(_ script: Script) -> Run {
    let futureCount = script.futureCount
    let abandoned = Array(script.abandoned.prefix(futureCount))

    // Number the registrations and give those that ask for one a token of their own.
    var numbered: [Registration] = []
    var numberedIDs: [[Int?]] = []
    for (thread, steps) in script.threads.enumerated() {
        numberedIDs.append(
            steps.map { step in
                guard case .register(let future, let context, let withToken) = step else { return nil }
                numbered.append(
                    Registration(
                        thread: thread, future: future % futureCount, context: context,
                        token: withToken ? CancelToken() : nil))
                return numbered.count - 1
            })
    }
    let registrations = numbered
    let registrationIDs = numberedIDs
    let cancellable = registrations.indices.filter { registrations[$0].token != nil }

    let promises = (0..<futureCount).map { _ in Promise<Int, PropError>() }
    let queues = [DispatchQueue(label: "props.queueA"), DispatchQueue(label: "props.queueB")]
    let contexts = [immediateExecutionContext, ExecutionContext(queue: queues[0]), ExecutionContext(queue: queues[1])]

    let observed = PropLocked(Observed())
    let captures = PropLocked<[WeakTracked]>([])
    let awaits = PropLocked<[(future: Int, task: Task<Result<Int, any Error>, Never>)]>([])
    let callbackRan = DispatchSemaphore(value: 0)

    DispatchQueue.concurrentPerform(iterations: script.threads.count) { thread in
        var mine: [PropFuture?] = promises.map(\.future)
        for (index, step) in script.threads[thread].enumerated() {
            switch step {
            case .complete(let future, let result):
                let future = future % futureCount
                guard !abandoned[future] else { continue }
                if promises[future].tryComplete(result) {
                    observed.withLock { $0.wins[future, default: []].append(result) }
                }
            case .register(let future, let context, _):
                let id = registrationIDs[thread][index]!
                guard let target = mine[future % futureCount] else { continue }
                let tracked = PropTracked()
                captures.withLock { $0.append(WeakTracked(object: tracked)) }
                let body: @Sendable (Result<Int, PropError>) -> Void = { result in
                    withExtendedLifetime(tracked) {
                        observed.withLock { seen in
                            seen.runs[id, default: []].append(result)
                            if context > 0 { seen.queueLogs[context - 1].append(id) }
                        }
                    }
                    callbackRan.signal()
                }
                observed.withLock { _ = $0.registered.insert(id) }
                if let token = registrations[id].token {
                    target.onComplete(context: contexts[context], cancelToken: token, completion: body)
                } else {
                    target.onComplete(contexts[context], callback: body)
                }
            case .cancel(let pick):
                guard !cancellable.isEmpty else { continue }
                let id = cancellable[pick % cancellable.count]
                guard let target = mine[registrations[id].future] else { continue }
                if target.cancel(registrations[id].token!) {
                    observed.withLock { _ = $0.cancelled.insert(id) }
                }
            case .await(let future):
                guard let target = mine[future % futureCount] else { continue }
                let box = FutureBox(target)
                let task = Task.detached { await awaitReleasing(box) }
                awaits.withLock { $0.append((future % futureCount, task)) }
            case .drop(let future):
                mine[future % futureCount] = nil
            }
        }
    }

    // Complete what the threads left pending, except the abandoned futures.
    for future in 0..<futureCount where !abandoned[future] {
        if promises[future].tryComplete(.success(-1)) {
            observed.withLock { $0.wins[future, default: []].append(.success(-1)) }
        }
    }

    // Wait for every callback the model says runs (bounded: a lost callback fails instead of hanging),
    // then let both queues finish what they were handed.
    let soFar = observed.current
    let expected = soFar.registered.filter { !abandoned[registrations[$0].future] && !soFar.cancelled.contains($0) }
    for _ in expected where callbackRan.wait(timeout: .now() + .seconds(gPatience)) == .timedOut {
        Issue.record("a callback the model expects never ran")
        break
    }
    for _ in 0..<2 {
        for queue in queues { queue.sync {} }
    }
    return Run(
        futureCount: futureCount, abandoned: abandoned, registrations: registrations, promises: promises,
        observed: observed.current, captures: captures.current, awaits: awaits.current)
}

/// Runs `script` and checks the contract; returns weak references to everything that must be released
/// once the run is over, and how many futures were abandoned.
private func run(_ script: Script) async -> (futures: [WeakFuture], captures: [WeakTracked], abandoned: Int) {
    let state = runThreads(script)
    let results = state.promises.map(\.future.result)

    // Waiters: those on abandoned futures stop when their task is cancelled, the others return the result.
    for (future, task) in state.awaits {
        if state.abandoned[future] { task.cancel() }
        let outcome = await task.value
        switch (outcome, results[future]) {
        case (.failure(let error), nil):
            #expect(error is CancellationError, "a waiter on an abandoned future stops when cancelled")
        case (.success(let value), .success(let expected)?):
            #expect(value == expected)
        case (.failure(let error), .failure(let expected)?):
            #expect(error as? PropError == expected)
        default:
            Issue.record(
                "a waiter on future \(future) got \(outcome); the future holds \(String(describing: results[future]))")
        }
    }

    // The model.
    let seen = state.observed
    for future in 0..<state.futureCount {
        if state.abandoned[future] {
            #expect(results[future] == nil)
            #expect(seen.wins[future] == nil)
        } else {
            #expect(seen.wins[future]?.count == 1, "exactly one completion wins")
            #expect(seen.wins[future]?.first == results[future])
        }
    }
    for id in seen.registered {
        let future = state.registrations[id].future
        let runs = seen.runs[id] ?? []
        if state.abandoned[future] || seen.cancelled.contains(id) {
            #expect(
                runs.isEmpty, "registration \(id) ran although \(state.abandoned[future] ? "abandoned" : "cancelled")")
        } else {
            #expect(runs.count == 1, "registration \(id) ran \(runs.count) times")
            #expect(runs.first == results[future])
        }
    }
    #expect(Set(seen.runs.keys).isSubset(of: seen.registered))
    for log in seen.queueLogs {
        for thread in script.threads.indices {
            for future in 0..<state.futureCount {
                let inOrder = log.filter {
                    state.registrations[$0].thread == thread && state.registrations[$0].future == future
                }
                #expect(inOrder == inOrder.sorted(), "one serial queue runs one thread's callbacks in order")
            }
        }
    }
    return (state.promises.map { WeakFuture(object: $0.future) }, state.captures, state.abandoned.filter { $0 }.count)
}

@Suite("Properties: concurrent complete / register / cancel / await / drop against a model")
struct ConcurrentContractProperties {
    @Test func randomInterleavingsFromFourThreadsKeepTheContract() async {
        await propertyCheck(count: 150, input: scripts) { script in
            let diagnostics = PropLocked<[FuturesDiagnostic]>([])
            // The run's promises are released when it returns: the abandoned ones report
            // `promiseDropped` there, to this task's handler.
            let (futures, captures, abandoned) = await FuturesDiagnostics.withHandler({ report in
                diagnostics.withLock { $0.append(report) }
            }) {
                await run(script)
            }
            #expect(futures.allSatisfy { $0.object == nil }, "every future is released")
            #expect(captures.allSatisfy { $0.object == nil }, "everything a callback captured is released")
            let reports = diagnostics.current
            #expect(reports.count == abandoned)
            #expect(reports.allSatisfy { if case .promiseDropped = $0 { true } else { false } })
        }
    }
}
