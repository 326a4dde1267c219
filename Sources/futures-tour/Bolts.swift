import Bolts
import Dispatch
import Foundation
import Futures

/// Bolts' `BFTask`: three terminal states, continuations that chain without nesting, one error handler
/// at the end, series and parallel work, executors.
func tourBolts() {
    print("\n== Bolts: BFTask ==")

    // Three terminal states on one cell.
    let succeeded = BFTask(result: 5)
    let faulted = BFTask<Int>(error: SaveError(code: -1))
    let cancelled = BFTask<Int>.cancelled()
    print("states: result \(succeeded.result!), faulted \(faulted.isFaulted), cancelled \(cancelled.isCancelled)")

    // Chaining: returning a task from a block continues with it, without nesting.
    let chained = fetchScoreAsync("Ada").continueOnSuccessWithTask { ada in
        fetchScoreAsync("Grace").continueOnSuccessWith { grace in ada.result! + grace.result! }
    }.continueOnSuccessWith { total in
        "Ada + Grace = \(total.result!)"
    }
    chained.waitUntilFinished()
    print("chain:", chained.result!)

    // One error handler at the end: on-success blocks let the fault pass through untouched.
    let skipped = BFTask<Int>(error: SaveError(code: -1)).continueOnSuccessWith { _ in
        print("never printed")
    }.continueWith { task -> String in
        if let error = task.error as? SaveError { return "handled error \(error.code) at the end" }
        return "no error"
    }
    print("errors:", skipped.result!)

    // Series: each delete waits for the previous one.
    let order = LockedLog()
    var series = BFTask(result: ())
    for comment in [1, 2, 4] {
        series = series.continueWithTask { _ in
            BFTask(executor: BFExecutor(dispatchQueue: .global())) { order.append("delete \(comment)") }
        }
    }
    series.waitUntilFinished()
    print("series:", order.entries.joined(separator: ", "))

    // Parallel: start everything, then wait for all of it. Errors win over cancellation, and several
    // errors come back together.
    let parallel = BFTask(forCompletionOfAllTasksWithResults: ["a", "bb", "ccc"].map(fetchScoreAsync))
    parallel.waitUntilFinished()
    print("parallel results:", parallel.result!)
    let mixed = BFTask(forCompletionOfAllTasks: [
        BFTask<Int>(error: SaveError(code: 1)), BFTask<String>.cancelled(), BFTask<Int>(error: SaveError(code: 2)),
    ])
    let aggregate = mixed.error as! BFAggregateError
    print("all: faulted, \(aggregate.errors.count) errors kept: \(aggregate.errors.map { ($0 as! SaveError).code })")
    let first = BFTask(forCompletionOfAnyTask: [BFTask<Int>(error: SaveError(code: 3)), BFTask(result: 7)])
    print("any: first success is \(first.result!)")

    // Executors: where a continuation runs.
    let queue = DispatchQueue(label: "tour.bolts")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "tour.bolts")
    let onQueue = BFTask(result: 1).continueWith(executor: BFExecutor(dispatchQueue: queue)) { _ in
        DispatchQueue.getSpecific(key: key) ?? "?"
    }
    let operations = OperationQueue()
    operations.name = "tour.bolts.operations"
    let onOperations = BFTask(result: 1).continueWith(executor: BFExecutor(operationQueue: operations)) { _ in
        OperationQueue.current?.name ?? "?"
    }
    onQueue.waitUntilFinished()
    onOperations.waitUntilFinished()
    print("executors: dispatch queue \(onQueue.result!), operation queue \(onOperations.result!)")
    // `.mainThread` runs inline on the main thread and otherwise queues on the main queue. (Where the
    // main queue is drained by a worker thread, as under Linux's `dispatchMain()`, that is not inline.)
    let onMain = BFTask(result: 1).continueWith(executor: .mainThread) { _ in Thread.isMainThread }
    print("mainThread executor: inline exactly when on the main thread: \(onMain.isCompleted == Thread.isMainThread)")

    // Conversions: a task is a Future<T, any Error>; cancelled ⇄ FuturesError.cancelled.
    let future = Future(BFTask<Int>.cancelled())
    print("Future(cancelled task) fails with \(future.error!); back to a task: cancelled \(BFTask(future).isCancelled)")
}

private struct SaveError: Error { let code: Int }

// A callback API wrapped with a completion source; the "backend" answers on a background queue.
private func fetchScoreAsync(_ name: String) -> BFTask<Int> {
    let source = BFTaskCompletionSource<Int>()
    DispatchQueue.global().async {
        if name.isEmpty {
            source.set(error: SaveError(code: 404))
        } else {
            source.set(result: name.count * 10)
        }
    }
    return source.task
}

/// A tiny thread-safe log for the tour.
final class LockedLog: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `storage` is only touched while holding `lock`.
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ entry: String) {
        lock.withLock { storage.append(entry) }
    }

    var entries: [String] {
        lock.withLock { storage }
    }
}
