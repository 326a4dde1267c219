import Bolts
import Dispatch
import Futures

/// Cancellation that reaches the work: one mechanism for futures, Swift tasks, wrapped callback APIs
/// and Bolts tokens.
func tourCancellation() {
    print("\n== Cancellation: one mechanism, reaching the producer ==")

    // A source and its token: handlers run once, on the cancelling thread.
    let source = CancellationSource()
    source.token.onCancellationRequested { print("token: handler ran") }
    let disposed = source.token.onCancellationRequested { print("never printed: disposed") }
    disposed.dispose()
    source.cancel()
    source.cancel()
    print("token: isCancellationRequested \(source.token.isCancellationRequested)")

    // A promise's producer observes requestCancellation() on its future.
    let promise = Promise<String, any Error>()
    promise.onCancellationRequested {
        print("producer: asked to stop, failing the promise")
        promise.failure(FuturesError.cancelled)
    }
    promise.future.requestCancellation()
    print("promise future:", promise.future.result!.readable)

    // A callback API wrapped with its cancel hook (a URLSessionTask.cancel, a timer, ...).
    let wrapped = Future<Int, any Error>(cancellable: { _ in
        // start the work here; keep `complete` for its callback
        return { print("wrapped API: cancel hook called") }
    })
    wrapped.requestCancellation()
    wrapped.requestCancellation()
    print("wrapped future:", wrapped.result!.readable)

    // An async operation: the token cancels its Swift task, which it observes.
    let stop = BFCancellationTokenSource()
    let started = DispatchSemaphore(value: 0)
    let operation = Future { () async throws -> Int in
        started.signal()
        do {
            // Waits until its task is cancelled: a future that never completes, abandoned on cancellation.
            return try await Future<Int, Never>().get(onTaskCancellation: .stopWaiting)
        } catch {
            print("operation: Task.isCancelled \(Task.isCancelled)")
            throw error
        }
    }.requestCancellation(when: stop.token)
    started.wait()
    stop.cancel()
    print("operation future fails with CancellationError:", operation.forced().error is CancellationError)

    // Bolts: a delay cancelled by its token completes at once, as cancelled.
    let bolts = BFCancellationTokenSource()
    let delayed = BFTask(delay: 60_000, cancellationToken: bolts.token)
    bolts.cancel()
    print("BFTask(delay: 60 s) after cancel: cancelled \(delayed.isCancelled)")
}
