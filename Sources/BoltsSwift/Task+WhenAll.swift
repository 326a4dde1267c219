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
    public static func whenAll(_ tasks: [Task<TResult>]) -> Task<Void> {
        gathered(tasks) { _ in () }
    }

    /// ``whenAll(_:)-([Task<TResult>])`` for tasks given one by one.
    public static func whenAll(_ tasks: Task<TResult>...) -> Task<Void> {
        whenAll(tasks)
    }

    /// A task with the results of every task of `tasks`, in list order, once all have completed
    /// (Bolts-Swift's `whenAllResult`); faults and cancellation as ``whenAll(_:)-([Task<TResult>])``.
    public static func whenAllResult(_ tasks: [Task<TResult>]) -> Task<[TResult]> {
        gathered(tasks) { $0 }
    }

    /// ``whenAllResult(_:)-([Task<TResult>])`` for tasks given one by one.
    public static func whenAllResult(_ tasks: Task<TResult>...) -> Task<[TResult]> {
        whenAllResult(tasks)
    }

    /// Gathers every outcome of `tasks` (the core's `settled()`, through its one gatherer) and
    /// completes the returned task, derived from the gathering, by Bolts-Swift's rule, with `values` of the
    /// results on success.
    private static func gathered<Out: Sendable>(
        _ tasks: [Task<TResult>],
        _ values: @escaping @Sendable ([TResult]) -> Out
    ) -> Task<Out> {
        let futures: [Future<TResult, any Error>] = tasks
        let next = Task<Out>(pending: ())
        next.derive(after: futures.settled(), immediateExecutionContext, step: "whenAll", file: #fileID, line: #line) {
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
