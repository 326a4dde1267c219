import Dispatch
import Foundation

/// Runs a task at once when called on the main thread, otherwise asynchronously on the main queue.
///
/// Use it for UI work: a callback registered with it runs on the main thread, and without a hop when
/// the future completes on the main thread. Like every context it only decides *where* a task runs: a
/// failed future's `onSuccess` callback still does not run, and cancellation does not skip a task.
///
/// Off the main thread the task waits for the main queue to be serviced (by the run loop,
/// `dispatchMain()`, or the main actor's executor); a program that never services it never runs the task,
/// and the callbacks queued behind it on the same future wait with it.
///
/// "The main thread" is `Thread.isMainThread`, as in BrightFutures. Where the main queue is drained by a
/// worker thread (a Linux program in `dispatchMain()`, e.g. under `swift test`), code on the main queue
/// is not on the main thread, so the task is queued again on the main queue: it still runs there.
public let immediateOnMainExecutionContext = ExecutionContext { task in
    runImmediatelyOnMain(isMainThread: Thread.isMainThread, task)
}

/// The rule of ``immediateOnMainExecutionContext``, with the thread test passed in (tests use both branches).
func runImmediatelyOnMain(isMainThread: Bool, _ task: @escaping @Sendable () -> Void) {
    if isMainThread {
        task()
    } else {
        DispatchQueue.main.async(execute: task)
    }
}
