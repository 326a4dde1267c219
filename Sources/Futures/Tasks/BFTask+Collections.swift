extension BFTask where T == Void {
    /// A task that completes when every task of `tasks` has completed (Bolts'
    /// `taskForCompletionOfAllTasks:`); the tasks may have different result types.
    ///
    /// - Succeeds (with `()`) if every task succeeded, and at once for an empty list.
    /// - Otherwise **errors win over cancellation**: if any task faulted it faults, with that error if
    ///   only one did, or with a ``BFAggregateError`` holding every error in list order if several did.
    /// - Otherwise (some were cancelled, none faulted) it is cancelled.
    ///
    /// O(n) in the number of tasks; does not keep completed tasks alive.
    public init(forCompletionOfAllTasks tasks: [any BFTaskProtocol]) {
        let gather = AllTasksGatherer<Void>(count: tasks.count, keepsResults: false)
        for (index, task) in tasks.enumerated() {
            observeErased(task, into: gather.future) { outcome in gather.record(index, outcome.map { _ in () }) }
        }
        self.init(future: Future(completingWith: gather.future))
    }

    /// A task that succeeds (with `()`) as soon as one task of `tasks` succeeds, whatever their result
    /// types: `init(forCompletionOfAnyTask:)` when only the moment matters (Bolts-Swift's `whenAny`
    /// gives a `Task<Void>` too).
    ///
    /// Faults and cancellation as the typed form: if none succeeds it faults (one error, or a
    /// ``BFAggregateError`` in list order), or is cancelled if all were cancelled; an empty list
    /// faults with ``FuturesError/noSuchElement``. The losers are not cancelled.
    ///
    /// ```swift
    /// let ready: BFTask<Void> = BFTask(
    ///     forCompletionOfAnyTask: [loadUser, loadSettings])
    /// ```
    @_disfavoredOverload
    public init(forCompletionOfAnyTask tasks: [any BFTaskProtocol]) {
        let gather = AnyTaskGatherer<Void>(count: tasks.count)
        for (index, task) in tasks.enumerated() {
            observeErased(task, into: gather.future) { outcome in gather.record(index, outcome.map { _ in () }) }
        }
        self.init(future: gather.future)
    }
}

extension BFTask {
    /// A task with the results of every task of `tasks`, in list order, once all have completed
    /// (Bolts' `taskForCompletionOfAllTasksWithResults:`).
    ///
    /// Faults and cancellation as ``init(forCompletionOfAllTasks:)``: errors win over cancellation,
    /// several errors come together in a ``BFAggregateError``. O(n).
    public init<U>(forCompletionOfAllTasksWithResults tasks: [BFTask<U>]) where T == [U] {
        let gather = AllTasksGatherer<U>(count: tasks.count, keepsResults: true)
        for (index, task) in tasks.enumerated() {
            gather.future.depend(on: task.future, link: .gathered) { result in gather.record(index, result) }
        }
        self.init(future: gather.future)
    }

    /// A task with the result of the first task of `tasks` to **succeed** (Bolts'
    /// `taskForCompletionOfAnyTask:`); the others' results are ignored and they are not cancelled
    /// (tasks may be shared).
    ///
    /// If none succeeds, it faults with the error (or a ``BFAggregateError`` of every error, in list
    /// order, if several faulted), or is cancelled if every task was cancelled. An empty list faults
    /// with ``FuturesError/noSuchElement`` (there is no result to give).
    public init(forCompletionOfAnyTask tasks: [BFTask<T>]) {
        let gather = AnyTaskGatherer<T>(count: tasks.count)
        for (index, task) in tasks.enumerated() {
            gather.future.depend(on: task.future, link: .gathered) { result in gather.record(index, result) }
        }
        self.init(future: gather.future)
    }
}

extension BFTask where T == [any Sendable] {
    /// `init(forCompletionOfAllTasksWithResults:)` for tasks of different result types: the results, in
    /// list order, as `any Sendable`. Faults and cancellation as there.
    public init(forCompletionOfAllTasksWithResults tasks: [any BFTaskProtocol]) {
        let gather = AllTasksGatherer<any Sendable>(count: tasks.count, keepsResults: true)
        for (index, task) in tasks.enumerated() {
            observeErased(task, into: gather.future) { outcome in gather.record(index, outcome) }
        }
        self.init(future: gather.future)
    }
}

extension BFTask where T == any Sendable {
    /// `init(forCompletionOfAnyTask:)` for tasks of different result types: the result is the
    /// first successful task's result, as `any Sendable`.
    public init(forCompletionOfAnyTask tasks: [any BFTaskProtocol]) {
        let gather = AnyTaskGatherer<any Sendable>(count: tasks.count)
        for (index, task) in tasks.enumerated() {
            observeErased(task, into: gather.future) { outcome in gather.record(index, outcome) }
        }
        self.init(future: gather.future)
    }
}

/// Opens `task`'s result type and reports its outcome, type-erased, on the immediate context, with
/// `gathered` as one consumer of the task (a cancellation request on `gathered` is that consumer's ask).
private func observeErased<Task: BFTaskProtocol, Gathered: Sendable>(
    _ task: Task,
    into gathered: Future<Gathered, any Error>,
    _ body: @escaping @Sendable (Result<any Sendable, any Error>) -> Void
) {
    gathered.depend(on: task.bfTask.future, link: .gathered) { result in
        body(result.map { $0 as any Sendable })
    }
}

/// Fails or cancels from the collected errors: the only error, an aggregate of several (list
/// order), or cancellation when there were none.
private func combinedFailure(_ errors: [(index: Int, error: any Error)]) -> any Error {
    let ordered = errors.sorted { $0.index < $1.index }.map(\.error)
    switch ordered.count {
    case 0: return FuturesError.cancelled
    case 1: return ordered[0]
    default: return BFAggregateError(errors: ordered)
    }
}

/// Collects the outcomes of the "all" forms: O(1) per task, one lock, results in list order.
private final class AllTasksGatherer<U: Sendable>: Sendable {
    struct State {
        var remaining: Int
        var results: [U?]
        var errors: [(index: Int, error: any Error)] = []
        var cancelled = false
    }

    let future = Future<[U], any Error>()
    private let state: LockedBox<State>

    init(count: Int, keepsResults: Bool) {
        state = LockedBox(State(remaining: count, results: keepsResults ? Array(repeating: nil, count: count) : []))
        if count == 0 { future.complete(.success([])) }
    }

    func record(_ index: Int, _ result: Result<U, any Error>) {
        let finished = state.withValue { state -> State? in
            switch result {
            case .success(let value):
                if !state.results.isEmpty { state.results[index] = value }
            case .failure(let error):
                if isCancellationError(error) {
                    state.cancelled = true
                } else {
                    state.errors.append((index, error))
                }
            }
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            let snapshot = state
            state.results = []
            return snapshot
        }
        guard let finished else { return }
        if finished.errors.isEmpty && !finished.cancelled {
            future.complete(.success(finished.results.map { $0! }))
        } else {
            future.complete(.failure(combinedFailure(finished.errors)))
        }
    }
}

extension Future where T == Void, E == any Error {
    fileprivate convenience init(completingWith gather: Future<[Void], any Error>) {
        self.init()
        depend(on: gather) { [self] result in self.complete(result.map { _ in () }) }
    }
}

/// Collects the outcomes of the "any" forms: the first success wins; otherwise the combined failure.
private final class AnyTaskGatherer<U: Sendable>: Sendable {
    struct State {
        var remaining: Int
        var errors: [(index: Int, error: any Error)] = []
        var cancelled = false
    }

    let future = Future<U, any Error>()
    private let state: LockedBox<State>

    init(count: Int) {
        state = LockedBox(State(remaining: count))
        if count == 0 { future.complete(.failure(FuturesError.noSuchElement)) }
    }

    func record(_ index: Int, _ result: Result<U, any Error>) {
        if case .success = result {
            future.complete(result)
            return
        }
        let finished = state.withValue { state -> State? in
            if case .failure(let error) = result {
                if isCancellationError(error) {
                    state.cancelled = true
                } else {
                    state.errors.append((index, error))
                }
            }
            state.remaining -= 1
            return state.remaining == 0 ? state : nil
        }
        guard let finished else { return }
        future.complete(.failure(combinedFailure(finished.errors)))
    }
}
