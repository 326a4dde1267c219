import Futures

extension Task {
    /// A task that succeeds (with `()`) as soon as any task of `tasks` completes, **whatever its state**:
    /// a fault or a cancellation counts as a completion (Bolts-Swift's `whenAny`). An empty array gives a
    /// task that has succeeded.
    ///
    /// The winner is picked by the core's `firstCompleted()` (among tasks already completed, the first in
    /// list order). The other tasks are left alone. No closure of yours runs.
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public static func whenAny(
        _ tasks: [Task<TResult>], file: StaticString = #fileID, line: UInt = #line
    ) -> Task<Void> {
        if tasks.isEmpty { return Task<Void>(()) }
        let futures: [Future<TResult, any Error>] = tasks
        let first: Future<TResult, any Error> = futures.firstCompleted(file: file, line: line)
        let next = Task<Void>(pending: ())
        next.derive(after: first, immediateExecutionContext, step: "whenAny", file: file, line: line) { _ in
            next.complete(.success(()))
        }
        return next
    }

    /// ``whenAny(_:file:line:)-([Task<TResult>],_,_)`` for tasks given one by one.
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public static func whenAny(
        _ tasks: Task<TResult>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Task<Void> {
        whenAny(tasks, file: file, line: line)
    }
}
