import Futures

extension Task {
    /// A task that completes once every task of `tasks` has completed (Bolts-Swift's `whenAll`).
    ///
    /// - Succeeds (with `()`) if every task succeeded, and at once for an empty array.
    /// - Otherwise **cancellation wins over errors**, as in Bolts-Swift: if any task was cancelled, it is
    ///   cancelled; else it faults with an ``AggregateError`` holding every error in list order (even if
    ///   only one task faulted).
    ///
    /// The tasks are gathered by the core's one gatherer (the collector behind `settled()`): O(n), and
    /// each task is released from the gathering as it completes. No closure of yours runs.
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public static func whenAll(
        _ tasks: [Task<TResult>], file: StaticString = #fileID, line: UInt = #line
    ) -> Task<Void> {
        gathered(tasks, "whenAll", file, line) { _ in () }
    }

    /// ``whenAll(_:file:line:)-([Task<TResult>],_,_)`` for tasks given one by one.
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public static func whenAll(
        _ tasks: Task<TResult>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Task<Void> {
        gathered(tasks, "whenAll", file, line) { _ in () }
    }

    /// A task with the results of every task of `tasks`, in list order, once all have completed
    /// (Bolts-Swift's `whenAllResult`); faults and cancellation as
    /// ``whenAll(_:file:line:)-([Task<TResult>],_,_)``.
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public static func whenAllResult(
        _ tasks: [Task<TResult>], file: StaticString = #fileID, line: UInt = #line
    ) -> Task<[TResult]> {
        gathered(tasks, "whenAllResult", file, line) { $0 }
    }

    /// ``whenAllResult(_:file:line:)-([Task<TResult>],_,_)`` for tasks given one by one.
    ///
    /// - Parameters:
    ///   - tasks: The tasks to wait for.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    public static func whenAllResult(
        _ tasks: Task<TResult>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Task<[TResult]> {
        gathered(tasks, "whenAllResult", file, line) { $0 }
    }

    /// Gathers every outcome of `tasks` (the core's `settled()`, through its one gatherer) and
    /// completes the returned task, derived from the gathering, by Bolts-Swift's rule, with `values` of the
    /// results on success.
    private static func gathered<Out: Sendable>(
        _ tasks: [Task<TResult>],
        _ name: StaticString,
        _ file: StaticString,
        _ line: UInt,
        _ values: @escaping @Sendable ([TResult]) -> Out
    ) -> Task<Out> {
        let futures: [Future<TResult, any Error>] = tasks
        let next = Task<Out>(pending: ())
        next.derive(
            after: futures.settled(file: file, line: line), immediateExecutionContext, step: name, file: file,
            line: line
        ) {
            (outcomes: Result<[Result<TResult, any Error>], Never>) in
            guard case .success(let outcomes) = outcomes else { return }
            var results: [TResult] = []
            var errors: [any Error] = []
            var cancelled = false
            results.reserveCapacity(outcomes.count)
            for outcome in outcomes {
                switch outcome {
                case .success(let value): results.append(value)
                case .failure(let error) where isCancellationError(error): cancelled = true
                case .failure(let error): errors.append(error)
                }
            }
            if cancelled {
                next.complete(.failure(FuturesError.cancelled))
            } else if !errors.isEmpty {
                next.complete(.failure(AggregateError(errors: errors)))
            } else {
                next.complete(.success(values(results)))
            }
        }
        return next
    }
}
