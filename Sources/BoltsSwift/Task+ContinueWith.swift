import Futures

// One declaration per name and kind of closure (Bolts-Swift's own set): a closure that returns a value
// uses `continueWith`, `continueOnSuccessWith` or `continueOnErrorWith`; one that returns a task uses the
// `…Task` name. Each is generic only in what the closure returns, so chains type-check at once.
//
// Each is `@inline(__always)`: inlined into the caller, the closure literal is known, and the callback that
// the slow path registers captures what the closure captures instead of boxing the closure (one allocation
// less per pending continuation: W2sBoltsSwift 17 → 13 mallocs per operation).

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
        return Task<S>(
            future: future.derive(context) { [weak self] result, next in
                next.complete(settle { try continuation(self ?? .standIn(for: result)) })
            })
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
        return Task<S>(
            future: future.derive(context) { [weak self] result, next in
                Next.following { try continuation(self ?? .standIn(for: result)) }.complete(next)
            })
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
        return Task<S>(
            future: future.derive(context) { result, next in
                switch result {
                case .success(let value): next.complete(settle { try continuation(value) })
                case .failure(let error): next.complete(.failure(error))
                }
            })
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
        return Task<S>(
            future: future.derive(context) { result, next in
                switch result {
                case .success(let value): Next.following { try continuation(value) }.complete(next)
                case .failure(let error): next.complete(.failure(error))
                }
            })
    }

    // MARK: - continueOnErrorWith

    /// Runs `continuation` with the error if this task faults with an error of type `E`, to recover with
    /// a result; a success, a cancellation, or an error of another type passes straight through.
    ///
    /// ```swift
    /// let recovered = Task<Int>(error: URLError(.timedOut))
    ///     .continueOnErrorWith { (error: URLError) in error.code == .timedOut ? 0 : -1 }
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

    /// What a continuation completes its new task with: an outcome, or another task's future to follow.
    @usableFromInline
    enum Next<S: Sendable> {
        case settled(Result<S, any Error>)
        case follow(Future<S, any Error>)

        /// The future of the task `body` returns, or the error it throws (``CancelledError``: cancelled).
        @inlinable
        static func following(_ body: () throws -> Task<S>) -> Next<S> {
            do {
                return .follow(try body().future)
            } catch {
                return .settled(settle { throw error })
            }
        }

        /// The new task's future: the outcome, or one following the other task (the core's `following`:
        /// that future itself once it has completed, one of its consumers otherwise).
        @inlinable
        var future: Future<S, any Error> {
            switch self {
            case .settled(let result): Future(result: result)
            case .follow(let other): Future.following(other)
            }
        }

        /// Completes `next` with the outcome, or with the other task's once it has one.
        @inlinable
        func complete(_ next: Future<S, any Error>) {
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
        return Task(future: future.derive(context) { result, next in step(result).complete(next) })
    }

    /// The fast path of every continuation, the core combinators' (`ifCompleted`): on `.immediate` over a
    /// completed task, `step` runs right here, through the trampoline, and the new task is built from its
    /// answer, with no callback registered. `nil`, with nothing run, when the task is pending, the executor
    /// is another one, or the trampoline has no frame left: the caller then derives the new task.
    ///
    /// The slow path of every continuation is a step derived from this task's future through the core's
    /// dependency primitive (`derive`: one consumer of this task's cell, a callback on the executor's
    /// context, released once it has run), so it has the core's guarantees: continuations of one task are
    /// independent, stack-safe on `.immediate` and `.default` at any depth, and an abandoned pending task
    /// is released with its continuations. The forms whose closure receives the task hold it weakly (see
    /// ``standIn(for:)``).
    @inlinable
    func continuedNow<S>(
        _ context: ExecutionContext,
        _ step: (Result<TResult, any Error>) -> Next<S>
    ) -> Task<S>? {
        guard context.isImmediate else { return nil }
        return future.ifCompleted { result in Task<S>(future: step(result).future) }
    }

    /// The task a continuation receives when the task it was added to is gone by the time it runs (nobody
    /// holds it, so nobody can compare identities): a task with the same outcome. Its future counts as
    /// looked at, so a failure is not reported as unobserved a second time.
    @usableFromInline
    static func standIn(for result: Result<TResult, any Error>) -> Task<TResult> {
        let future = Future(result: result)
        _ = future.result
        return Task(future: future)
    }
}
