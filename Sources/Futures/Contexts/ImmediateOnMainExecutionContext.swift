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
public let immediateOnMainExecutionContext = ExecutionContext { task in
    if Thread.isMainThread {
        task()
    } else {
        DispatchQueue.main.async(execute: task)
    }
}
