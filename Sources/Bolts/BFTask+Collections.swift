import Futures

extension BFTask where T == Void {
    /// A task that completes when every task of `tasks` has completed (Bolts'
    /// `taskForCompletionOfAllTasks:`); the tasks may have different result types.
    ///
    /// - Succeeds (with `()`) if every task succeeded, and at once for an empty list.
    /// - Otherwise **errors win over cancellation**: if any task faulted it faults, with that error if
    ///   only one did, or with a ``BFAggregateError`` holding every error in list order if several did.
    /// - Otherwise (some were cancelled, none faulted) it is cancelled.
    ///
    /// Gathered by the core's `settled()`: O(n), and no task's result is kept.
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public init(forCompletionOfAllTasks tasks: [any BFTaskProtocol], file: StaticString = #fileID, line: UInt = #line) {
        self.init(
            future: allCompleted(tasks.map { voided($0, file, line) }, "forCompletionOfAllTasks", file, line) { _ in ()
            })
    }

    /// A task that succeeds (with `()`) as soon as one task of `tasks` succeeds, whatever their result
    /// types: `init(forCompletionOfAnyTask:)` when only the moment matters (Bolts-Swift's `whenAny`
    /// gives a `Task<Void>` too).
    ///
    /// Faults and cancellation as the typed form: if none succeeds it faults (one error, or a
    /// ``BFAggregateError`` in list order), or is cancelled if all were cancelled; an empty list
    /// faults with `FuturesError.noSuchElement`. The losers are not cancelled.
    ///
    /// ```swift
    /// let ready: BFTask<Void> =
    ///     BFTask(forCompletionOfAnyTask: [loadUser, loadSettings])
    /// ```
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    @_disfavoredOverload
    public init(forCompletionOfAnyTask tasks: [any BFTaskProtocol], file: StaticString = #fileID, line: UInt = #line) {
        self.init(future: firstSucceeded(tasks.map { voided($0, file, line) }, file, line))
    }
}

extension BFTask {
    /// A task with the results of every task of `tasks`, in list order, once all have completed
    /// (Bolts' `taskForCompletionOfAllTasksWithResults:`).
    ///
    /// Faults and cancellation as ``init(forCompletionOfAllTasks:file:line:)``: errors win over cancellation,
    /// several errors come together in a ``BFAggregateError``. Gathered by the core's `settled()`: O(n).
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public init<U>(
        forCompletionOfAllTasksWithResults tasks: [BFTask<U>], file: StaticString = #fileID, line: UInt = #line
    ) where T == [U] {
        self.init(future: allCompleted(tasks.map(\.future), "forCompletionOfAllTasksWithResults", file, line) { $0 })
    }

    /// A task with the result of the first task of `tasks` to **succeed** (Bolts'
    /// `taskForCompletionOfAnyTask:`); the others' results are ignored and they are not cancelled
    /// (tasks may be shared).
    ///
    /// If none succeeds, it faults with the error (or a ``BFAggregateError`` of every error, in list
    /// order, if several faulted), or is cancelled if every task was cancelled. An empty list faults
    /// with `FuturesError.noSuchElement` (there is no result to give). Gathered by the core's
    /// `firstCompleted()` and `settled()`: O(n).
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public init(forCompletionOfAnyTask tasks: [BFTask<T>], file: StaticString = #fileID, line: UInt = #line) {
        self.init(future: firstSucceeded(tasks.map(\.future), file, line))
    }
}

extension BFTask where T == [any Sendable] {
    /// `init(forCompletionOfAllTasksWithResults:)` for tasks of different result types: the results, in
    /// list order, as `any Sendable`. Faults and cancellation as there.
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public init(
        forCompletionOfAllTasksWithResults tasks: [any BFTaskProtocol], file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            future: allCompleted(tasks.map { erased($0, file, line) }, "forCompletionOfAllTasksWithResults", file, line)
            { $0 })
    }
}

extension BFTask where T == any Sendable {
    /// `init(forCompletionOfAnyTask:)` for tasks of different result types: the result is the
    /// first successful task's result, as `any Sendable`.
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public init(forCompletionOfAnyTask tasks: [any BFTaskProtocol], file: StaticString = #fileID, line: UInt = #line) {
        self.init(future: firstSucceeded(tasks.map { erased($0, file, line) }, file, line))
    }
}

/// `task`'s cell with its result type erased: a step derived from it (one consumer of it).
private func erased<Task: BFTaskProtocol>(
    _ task: Task, _ file: StaticString, _ line: UInt
) -> Future<any Sendable, any Error> {
    task.bfTask.future.derive(immediateExecutionContext, step: "BFTask gathering", file: file, line: line) {
        (result: Result<Task.TaskResult, any Error>, next: Future<any Sendable, any Error>) in
        next.complete(result.map { $0 as any Sendable })
    }
}

/// `task`'s cell with its result dropped: a step derived from it (one consumer of it).
private func voided<Task: BFTaskProtocol>(
    _ task: Task, _ file: StaticString, _ line: UInt
) -> Future<Void, any Error> {
    task.bfTask.future.derive(immediateExecutionContext, step: "BFTask gathering", file: file, line: line) {
        (result: Result<Task.TaskResult, any Error>, next: Future<Void, any Error>) in
        next.complete(result.map { _ in () })
    }
}

/// The "all" forms: every outcome, gathered by the core's `settled()`, then Objective-C Bolts' rule —
/// success (with `values` of the results, in list order) if every future succeeded; else the error, or a
/// ``BFAggregateError`` of the errors in list order; else (none faulted) cancelled.
private func allCompleted<U: Sendable, Out: Sendable>(
    _ futures: [Future<U, any Error>],
    _ name: StaticString,
    _ file: StaticString,
    _ line: UInt,
    _ values: @escaping @Sendable ([U]) -> Out
) -> Future<Out, any Error> {
    futures.settled(file: file, line: line).derive(immediateExecutionContext, step: name, file: file, line: line) {
        (outcomes: Result<[Result<U, any Error>], Never>, next: Future<Out, any Error>) in
        guard case .success(let outcomes) = outcomes else { return }
        var results: [U] = []
        results.reserveCapacity(outcomes.count)
        var errors: [any Error] = []
        var cancelled = false
        for outcome in outcomes {
            switch outcome {
            case .success(let value): results.append(value)
            case .failure(let error) where isCancellationError(error): cancelled = true
            case .failure(let error): errors.append(error)
            }
        }
        if errors.isEmpty && !cancelled {
            next.complete(.success(values(results)))
        } else {
            next.complete(.failure(combinedFailure(errors)))
        }
    }
}

/// The "any" forms: the first future to succeed, picked by the core's `firstCompleted()` among one step
/// per future that completes only if its future succeeds, and a last one, after the core's `settled()`,
/// that completes once every future has (with the first success in list order, or Objective-C Bolts'
/// failure: the error, a ``BFAggregateError`` in list order, or cancelled). An empty list faults with
/// `FuturesError.noSuchElement`. Every step is recorded at the caller's `file`:`line`; the last one, which
/// passes the pick on, is named `forCompletionOfAnyTask`.
///
/// A cancellation request on the result reaches every future still pending through both (each future is
/// asked once all its consumers have asked, GUARANTEES.md G8).
private func firstSucceeded<U: Sendable>(
    _ futures: [Future<U, any Error>], _ file: StaticString, _ line: UInt
) -> Future<U, any Error> {
    guard !futures.isEmpty else {
        let empty = Future<U, any Error>.produced("forCompletionOfAnyTask", file: file, line: line)
        empty.complete(.failure(FuturesError.noSuchElement))
        return empty
    }
    var candidates = futures.map { future in
        future.derive(immediateExecutionContext, step: "BFTask gathering", file: file, line: line) {
            (result: Result<U, any Error>, next: Future<U, any Error>) in
            if case .success = result { next.complete(result) }
        }
    }
    candidates.append(
        futures.settled(file: file, line: line).derive(
            immediateExecutionContext, step: "BFTask gathering", file: file, line: line
        ) {
            (outcomes: Result<[Result<U, any Error>], Never>, next: Future<U, any Error>) in
            guard case .success(let outcomes) = outcomes else { return }
            var errors: [any Error] = []
            for outcome in outcomes {
                switch outcome {
                case .success:
                    next.complete(outcome)
                    return
                case .failure(let error) where isCancellationError(error): break
                case .failure(let error): errors.append(error)
                }
            }
            next.complete(.failure(combinedFailure(errors)))
        })
    // The last step carries the caller's name for the whole gathering.
    return candidates.firstCompleted(file: file, line: line).derive(
        immediateExecutionContext, step: "forCompletionOfAnyTask", file: file, line: line
    ) { (result: Result<U, any Error>, next: Future<U, any Error>) in next.complete(result) }
}

/// Fails or cancels from the collected errors (in list order): the only error, an aggregate of several,
/// or cancellation when there were none.
private func combinedFailure(_ errors: [any Error]) -> any Error {
    switch errors.count {
    case 0: return FuturesError.cancelled
    case 1: return errors[0]
    default: return BFAggregateError(errors: errors)
    }
}
