// Waiters: a task that awaits the result is woken by an entry of the cell's list, ahead of the callbacks
// (`get()` and its cancellation policies are built on these two).

extension Future {
    /// Waits, without blocking a thread, for the result, ignoring Swift task cancellation: one wake-up in the
    /// list, a consumer of this future until it completes. Returns at once when the future has completed.
    @inlinable
    final func awaitResult() async -> Result<T, E> {
        if let result = _outcome { return result }
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, E>, Never>) in
            onCompletionWakeUp { continuation.resume(returning: $0) }
        }
    }

    /// Waits for the result until the awaiting Swift task is cancelled; returns `nil` then (or at once if it
    /// is cancelled already and the future is pending).
    ///
    /// The waiter is a removable entry: cancellation takes it back from the list, so an abandoned wait
    /// leaves nothing behind. With `leaving`, it goes as a consumer that asked for cancellation (see
    /// ``removeEntry(_:leaving:)``): the producer is asked once every other consumer has asked or was
    /// taken back.
    final func awaitResultUntilTaskCancellation(leaving: Bool) async -> Result<T, E>? {
        if let result = _outcome { return result }
        if Task.isCancelled {
            // Cancelled before it waited: a waiter that leaves at once still withdraws its interest.
            if leaving {
                let entry = RemovableEntry<T, E>(.wakeUp { _ in })
                if addRemovable(entry) { removeEntry(entry, leaving: true) }
            }
            return nil
        }
        let waiter = CancellableWaiter<T, E>()
        let entry = RemovableEntry<T, E>(.wakeUp { result in waiter.finish(result) })
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, E>?, Never>) in
                guard waiter.start(continuation) else { return }
                // If the task was cancelled between `start` and here, its handler could not find the entry
                // yet: take it back now so nothing is left behind.
                if addRemovable(entry), waiter.isCancelled {
                    removeEntry(entry, leaving: leaving)
                }
            }
        } onCancel: {
            if waiter.cancel() {
                self.removeEntry(entry, leaving: leaving)
            }
        }
    }
}
