import Futures

extension Task {
    /// A task that succeeds (with `()`) as soon as any task of `tasks` completes, **whatever its state**:
    /// a fault or a cancellation counts as a completion (Bolts-Swift's `whenAny`). An empty array gives a
    /// task that has succeeded.
    ///
    /// The winner is picked by the core's `firstCompleted()` (among tasks already completed, the first in
    /// list order). The other tasks are left alone. No closure of yours runs.
    public static func whenAny(_ tasks: [Task<TResult>]) -> Task<Void> {
        if tasks.isEmpty { return Task<Void>(()) }
        let futures: [Future<TResult, any Error>] = tasks
        let first: Future<TResult, any Error> = futures.firstCompleted()
        let next = Task<Void>(pending: ())
        next.derive(after: first, immediateExecutionContext, step: "whenAny", file: #fileID, line: #line) { _ in
            next.complete(.success(()))
        }
        return next
    }

    /// ``whenAny(_:)-([Task<TResult>])`` for tasks given one by one.
    public static func whenAny(_ tasks: Task<TResult>...) -> Task<Void> {
        whenAny(tasks)
    }
}
