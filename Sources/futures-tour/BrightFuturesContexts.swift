import Dispatch
import Foundation
import Futures
import Synchronization

/// Execution contexts, the default threading model, invalidation tokens and debug logging.
func tourBrightFuturesContexts() {
    print("\n== BrightFutures: contexts, invalidation tokens, debug ==")

    // Where a callback runs is decided by its context.
    let inlineRan = Future<Int, Never>(value: 1)
        .andThen(context: immediateExecutionContext) { _ in print("immediate: runs inline, right here") }
    _ = inlineRan.forced()

    let queue = DispatchQueue(label: "tour.serial")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "tour.serial")
    let onQueue = Future<Int, Never>(value: 2).map(queue.context) { value in
        "\(value) mapped on \(DispatchQueue.getSpecific(key: key) ?? "?")"
    }
    print("DispatchQueue.context:", onQueue.forced().value ?? "")

    let operations = OperationQueue()
    operations.name = "tour.operations"
    let onOperations = Future<Int, Never>(value: 3).map(operations.context) { value in
        "\(value) mapped on \(OperationQueue.current?.name ?? "?")"
    }
    print("OperationQueue.context:", onOperations.forced().value ?? "")

    let semaphore = DispatchSemaphore(value: 1)
    let guarded = Future<Int, Never>(value: 4).map(semaphore.context) { "\($0) mapped while holding the semaphore" }
    print("DispatchSemaphore.context:", guarded.forced().value ?? "")

    // This is top-level code, so it runs on the main thread: the task runs inline.
    let flag = DispatchSemaphore(value: 0)
    immediateOnMainExecutionContext { flag.signal() }
    let ranInline = flag.wait(timeout: .now()) == .success
    print("immediateOnMainExecutionContext on the main thread ran inline:", ranInline)

    // A plain function makes a context too (BrightFutures' contexts were functions; `import BrightFutures`
    // code passes the function itself).
    let tasks = ContextTaskCounter()
    let counting = ExecutionContext { task in
        tasks.add()
        task()
    }
    let viaFunction = Future<Int, Never>(value: 5).map(counting) { $0 * 10 }
    print("a context function ran \(tasks.count) task(s); value", viaFunction.value ?? 0)

    // Without a context, BrightFutures' rule applies; a task-local override makes it immediate.
    DefaultExecutionContext.withDefault(immediateExecutionContext) {
        _ = Future<Int, Never>(value: 6).onSuccess { print("default context overridden to immediate: got", $0) }
    }

    // Invalidation tokens: a reused cell ignores the image of its previous model.
    let token = InvalidationToken()
    let image = Promise<String, Never>()
    let shown = image.future.andThen(context: token.validContext(immediateExecutionContext)) { result in
        print("cell shows", result.value ?? "")
    }
    token.invalidate()  // prepareForReuse
    image.success("old-model.png")
    print("after invalidation the callback was skipped; token.isInvalid =", token.isInvalid)
    print(
        "token.future:", token.future.error.map { "\($0)" } ?? "pending", "- derived future pending:",
        !shown.isCompleted)

    // Debug logging.
    _ = Future<Int, Never>(value: 7).debug("login", context: immediateExecutionContext).forced()
    _ = Future<Int, Never>(value: 8).debug(context: immediateExecutionContext).forced()

    // Errors and Result helpers.
    let filtered: Future<Int, CombinatorError<Never>> = Future(error: .noSuchElement)
    let promoted: Future<Int, CombinatorError<URLError>> = filtered.promoteError()
    print("promoteError keeps the case:", promoted.error.map { "\($0)" } ?? "")
    let nested = Result<Result<Int, CombinatorError<Never>>, CombinatorError<Never>>.success(.success(9))
    print("Result.flatten:", nested.flatten())
}

/// Counts tasks across threads for the tour.
private final class ContextTaskCounter: Sendable {
    private let value = Atomic<Int>(0)
    func add() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
