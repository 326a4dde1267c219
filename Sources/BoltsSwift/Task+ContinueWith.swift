import Futures

// One declaration per name and kind of closure (Bolts-Swift's own set): a closure that returns a value
// uses `continueWith`, `continueOnSuccessWith` or `continueOnErrorWith`; one that returns a task uses the
// `…Task` name. Each is generic only in what the closure returns, so chains type-check at once.
//
// Each is `@inline(__always)`: inlined into the caller, the closure literal is known, and the step that the
// slow path stores captures what the closure captures instead of boxing the closure.

extension Task {
    // MARK: - continueWith

    /// Runs `continuation` with this task once it completes (whatever its state) and returns a task for
    /// what it returns.
    ///
    /// ```swift
    /// let length = Task("four").continueWith { task in task.result?.count ?? 0 }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives this (completed) task. Its value succeeds the new task; an error it
    ///     throws faults it (``CancelledError`` cancels it).
    /// - Returns: A task completed with `continuation`'s outcome.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueWith<S>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (Task<TResult>) throws -> S
    ) -> Task<S> {
        let context = executor.context
        if let now = continuedNow(context, { _ in .settled(settle { try continuation(self) }) }) { return now }
        return continued(context, passing: true) { _, source, next in
            next.complete(settle { try continuation(source!) })
        }
    }

    /// Runs `continuation` with this task once it completes (whatever its state) and returns a task that
    /// completes when the task `continuation` returns does: chaining without nesting.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives this (completed) task and returns the task to follow; an error it throws
    ///     faults the new task (``CancelledError`` cancels it).
    /// - Returns: A task with the outcome of `continuation`'s task (a new task, not that one).
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueWithTask<S>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (Task<TResult>) throws -> Task<S>
    ) -> Task<S> {
        let context = executor.context
        if let now = continuedNow(context, { _ in .following { try continuation(self) } }) { return now }
        return continued(context, passing: true) { _, source, next in
            Next.following { try continuation(source!) }.complete(next)
        }
    }

    // MARK: - continueOnSuccessWith

    /// Runs `continuation` with the result if this task succeeds; a fault or a cancellation passes
    /// straight through to the returned task and `continuation` does not run.
    ///
    /// ```swift
    /// let doubled = Task(21).continueOnSuccessWith { value in value * 2 }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the result. Its value succeeds the new task; an error it throws faults
    ///     it (``CancelledError`` cancels it).
    /// - Returns: A task with `continuation`'s outcome, or this task's fault or cancellation.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnSuccessWith<S>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (TResult) throws -> S
    ) -> Task<S> {
        let context = executor.context
        if let now = continuedNow(
            context,
            { result in
                switch result {
                case .success(let value): .settled(settle { try continuation(value) })
                case .failure(let error): .settled(.failure(error))
                }
            })
        {
            return now
        }
        return continued(context, passing: false) { result, _, next in
            switch result {
            case .success(let value): next.complete(settle { try continuation(value) })
            case .failure(let error): next.complete(.failure(error))
            }
        }
    }

    /// Runs `continuation` with the result if this task succeeds and continues with the task it returns;
    /// a fault or a cancellation passes straight through and `continuation` does not run.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the result and returns the task to follow; an error it throws faults
    ///     the new task (``CancelledError`` cancels it).
    /// - Returns: A task with the outcome of `continuation`'s task, or this task's fault or cancellation.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnSuccessWithTask<S>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (TResult) throws -> Task<S>
    ) -> Task<S> {
        let context = executor.context
        if let now = continuedNow(
            context,
            { result in
                switch result {
                case .success(let value): .following { try continuation(value) }
                case .failure(let error): .settled(.failure(error))
                }
            })
        {
            return now
        }
        return continued(context, passing: false) { result, _, next in
            switch result {
            case .success(let value): Next.following { try continuation(value) }.complete(next)
            case .failure(let error): next.complete(.failure(error))
            }
        }
    }

    // MARK: - continueOnErrorWith

    /// Runs `continuation` with the error if this task faults with an error of type `E`, to recover with
    /// a result; a success, a cancellation, or an error of another type passes straight through.
    ///
    /// ```swift
    /// let recovered = Task<Int>(error: URLError(.timedOut))
    ///     .continueOnErrorWith { (error: URLError) in
    ///         error.code == .timedOut ? 0 : -1
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the error and returns the result instead; an error it throws faults the
    ///     new task (``CancelledError`` cancels it).
    /// - Returns: A task with this task's outcome, or `continuation`'s.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnErrorWith<E: Error>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (E) throws -> TResult
    ) -> Task<TResult> {
        recovering(executor) { (error: E) in .settled(settle { try continuation(error) }) }
    }

    /// Runs `continuation` with the error if this task faults, to recover with a result; a success or a
    /// cancellation passes straight through.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the error and returns the result instead; an error it throws faults the
    ///     new task (``CancelledError`` cancels it).
    /// - Returns: A task with this task's outcome, or `continuation`'s.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnErrorWith(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (any Error) throws -> TResult
    ) -> Task<TResult> {
        recovering(executor) { (error: any Error) in .settled(settle { try continuation(error) }) }
    }

    /// Runs `continuation` with the error if this task faults with an error of type `E` and continues with
    /// the task it returns; a success, a cancellation, or an error of another type passes straight through.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the error and returns the task to follow; an error it throws faults the
    ///     new task (``CancelledError`` cancels it).
    /// - Returns: A task with this task's outcome, or that of `continuation`'s task.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnErrorWithTask<E: Error>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (E) throws -> Task<TResult>
    ) -> Task<TResult> {
        recovering(executor) { (error: E) in .following { try continuation(error) } }
    }

    /// Runs `continuation` with the error if this task faults and continues with the task it returns; a
    /// success or a cancellation passes straight through.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the error and returns the task to follow; an error it throws faults the
    ///     new task (``CancelledError`` cancels it).
    /// - Returns: A task with this task's outcome, or that of `continuation`'s task.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnErrorWithTask(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (any Error) throws -> Task<TResult>
    ) -> Task<TResult> {
        recovering(executor) { (error: any Error) in .following { try continuation(error) } }
    }

    // MARK: - The one continuation primitive

    /// What a continuation completes its new task with: an outcome, or another task to follow.
    @usableFromInline
    enum Next<S: Sendable> {
        case settled(Result<S, any Error>)
        case follow(Task<S>)

        /// The task `body` returns, or the error it throws (``CancelledError``: cancelled).
        @inlinable
        static func following(_ body: () throws -> Task<S>) -> Next<S> {
            do {
                return .follow(try body())
            } catch {
                return .settled(settle { throw error })
            }
        }

        /// The new task: completed with the outcome; or the other task itself once it has completed (a
        /// request on a completed task does nothing, so there is nothing to forward), else a new task that
        /// follows it as one of its consumers (the core's `following`).
        @inlinable
        var task: Task<S> {
            switch self {
            case .settled(let result):
                return Task<S>(completed: result)
            case .follow(let other):
                if other.isCompleted { return other }
                let task = Task<S>(pending: ())
                task.completeWith(other)
                return task
            }
        }

        /// Completes `next` with the outcome, or with the other task's once it has one.
        @inlinable
        func complete(_ next: Task<S>) {
            switch self {
            case .settled(let result): next.complete(result)
            case .follow(let other): next.completeWith(other)
            }
        }
    }

    /// The faulted-only forms: `recover` runs with the error when it has type `E`, else the outcome passes
    /// through.
    @inlinable
    func recovering<E: Error>(
        _ executor: Executor,
        _ recover: @escaping @Sendable (E) -> Next<TResult>
    ) -> Task<TResult> {
        let step: @Sendable (Result<TResult, any Error>) -> Next<TResult> = { result in
            guard case .failure(let error) = result, !isCancellationError(error), let typed = error as? E else {
                return .settled(result)
            }
            return recover(typed)
        }
        let context = executor.context
        if let now = continuedNow(context, step) { return now }
        return continued(context, passing: false) { result, _, next in step(result).complete(next) }
    }

    /// The fast path of every continuation, the core combinators' (`ifCompleted`): on `.immediate` over a
    /// completed task, `step` runs right here, through the trampoline, and the new task is built from its
    /// answer, with no callback registered. `nil`, with nothing run, when the task is pending, the executor
    /// is another one, or the trampoline has no frame left: the caller then derives the new task
    /// (``continued(_:passing:_:)``).
    @inlinable
    func continuedNow<S>(
        _ context: ExecutionContext,
        _ step: (Result<TResult, any Error>) -> Next<S>
    ) -> Task<S>? {
        guard context.isImmediate else { return nil }
        return ifCompleted { result in step(result).task }
    }

    /// The slow path of every continuation: a new task derived from this one through the core's
    /// dependency primitive (`derive(after:)`: one consumer of this task, a callback on the executor's
    /// context, released once it has run), so it has the core's guarantees: continuations of one task are
    /// independent, stack-safe on `.immediate` and `.default` at any depth, cancellation requests travel
    /// upstream as one consumer's ask (G8). The new task carries `step` (and this task when `passing`, for
    /// the forms whose closure receives it) until the step runs.
    @inlinable
    func continued<S>(
        _ context: ExecutionContext,
        passing: Bool,
        _ step: @escaping @Sendable (Result<TResult, any Error>, Task<TResult>?, Task<S>) -> Void
    ) -> Task<S> {
        let next = ContinuationTask<S, TResult>(source: passing ? self : nil, step: step)
        next.derive(after: self, context, step: "continueWith", file: #fileID, line: #line) { result in
            next.fire(result)
        }
        return next
    }
}

/// A task derived from another one by a continuation, carrying the step that completes it.
///
/// The callback that ``Task/continued(_:passing:_:)`` registers on the source captures this one object:
/// no context box is allocated around the step and the task (the core's `DerivedFuture` does the same).
@usableFromInline
final class ContinuationTask<TResult: Sendable, Source: Sendable>: Task<TResult>, @unchecked Sendable {
    // `@unchecked Sendable`: `step` and `source` are set in `init`, before the task is shared, and taken
    // once in `fire(_:)`, the body of the one callback `continued` registers on the source: a callback runs
    // at most once (G2), on one thread. Nothing else reads or writes them; `deinit`, which destroys what is
    // left, runs after the last reference, the callback's included, is gone. For the same reason no two
    // accesses overlap, so the runtime's exclusivity check is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    var step: (@Sendable (Result<Source, any Error>, Task<Source>?, Task<TResult>) -> Void)?

    /// The task continued from, for the forms whose closure receives it; `nil` for the others.
    @usableFromInline
    @exclusivity(unchecked)
    var source: Task<Source>?

    @inlinable
    init(
        source: Task<Source>?,
        step: @escaping @Sendable (Result<Source, any Error>, Task<Source>?, Task<TResult>) -> Void
    ) {
        self.step = step
        self.source = source
        super.init(pending: ())
    }

    /// ``Task/init(resolver:)``, which every subclass must provide: the face never makes a continuation
    /// this way. The task has no step and no source, and `resolver` completes it.
    @usableFromInline
    required convenience init(
        resolver: (_ complete: @escaping @Sendable (Result<TResult, any Error>) -> Void) -> Void
    ) {
        self.init(source: nil) { _, _, _ in }
        step = nil
        resolver { [self] result in
            if !complete(result) {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(#fileID)", line: #line))
            }
        }
    }

    /// Runs the step with the source's result, releasing it (and the source) as soon as it has run.
    @inlinable
    func fire(_ result: Result<Source, any Error>) {
        guard let step = step.take() else { return }
        let source = source.take()
        step(result, source, self)
    }
}
