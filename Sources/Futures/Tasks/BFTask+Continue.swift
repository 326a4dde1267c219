/// The continuations of a task (Bolts' `continueWith…` family), in the dialect of Objective-C Bolts and
/// its guide: every block receives the finished task.
///
/// Each name has the fewest declarations its call shapes need, so that ordinary chains of
/// continuations with operators in `$0` blocks type-check quickly:
///
/// - **What the block returns.** `continueWith` and `continueOnSuccessWith` take a block returning a
///   value (nothing: a `BFTask<Void>`); `continueWithTask` and `continueOnSuccessWithTask` take a block
///   returning a `BFTask` and chain without nesting: the new task completes when that one does (Bolts-Swift's
///   names; Objective-C Bolts told the two apart at run time). One name for both made every step of a
///   chain of `$0` blocks two candidates, and a chain of four steps took seconds to type-check. A block
///   that returns a task where a value form expects a value is told to use the `…Task` form.
/// - **Where the token goes.** After the block, in Bolts' order
///   (`continueWith(executor:block:cancellationToken:)`), or before it so the block can be a trailing
///   closure (`continueWith(cancellationToken: token) { … }`). A call names the token or not, so only
///   one of the two positions is ever considered for it.
/// - **What a success block receives** (`continueOnSuccessWith`): the succeeded task, as in Objective-C
///   Bolts. Bolts-Swift's success block receives the value: that dialect is the `BoltsSwift` module's
///   `Task`. Serving both under one name made the compiler try every combination in a chain.
extension BFTask {
    // MARK: - continueWith

    /// Runs `block` with this task once it completes (whatever its state) and returns a task for
    /// what `block` returns (Bolts' `continueWithExecutor:block:cancellationToken:`).
    ///
    /// ```swift
    /// saveAsync(object).continueWith { task in
    ///     task.isCancelled
    ///         ? "cancelled" : task.error != nil ? "failed" : "saved"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` if omitted.
    ///   - block: Receives this (completed) task. Returning a value succeeds the new task with it
    ///     (nothing: with `()`); throwing faults it with the error (a cancellation error cancels it).
    ///   - cancellationToken: Checked just before `block` would run: if cancellation was requested,
    ///     `block` does not run and the new task is cancelled.
    /// - Returns: A task completed with `block`'s outcome.
    @inlinable
    @discardableResult
    public func continueWith<U>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> U,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<U> {
        if let now = continuedNow(executor, cancellationToken, { task, _ in Self.settled { try block(task) } }) {
            return now
        }
        return continuation(executor, cancellationToken) { next, task in
            next.complete(Result { try block(task) })
        }
    }

    /// Runs `block` with this task once it completes and returns a task that completes when the task
    /// `block` returns does: chaining without nesting (Bolts' block returning a `BFTask`).
    ///
    /// ```swift
    /// findAsync(query).continueWithTask { task in saveAsync(task.result![0]) }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` if omitted.
    ///   - block: Receives this (completed) task and returns the next task; returning
    ///     `BFTask.cancelled()` cancels the new task, throwing faults it.
    ///   - cancellationToken: Checked just before `block` would run: if cancellation was requested,
    ///     `block` does not run and the new task is cancelled.
    /// - Returns: A task with the outcome of `block`'s task.
    @inlinable
    @discardableResult
    public func continueWithTask<V>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<V> {
        if let now = continuedNow(executor, cancellationToken, { task, _ in Self.chained { try block(task) } }) {
            return now
        }
        return continuation(executor, cancellationToken) { next, task in
            Self.chain(next) { try block(task) }
        }
    }

    /// The value form of `continueWith` with the token before the block, so the block can be a
    /// trailing closure: `task.continueWith(cancellationToken: token) { task in … }`.
    @inlinable
    @discardableResult
    public func continueWith<U>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> U
    ) -> BFTask<U> {
        continueWith(executor: executor, block: block, cancellationToken: cancellationToken)
    }

    /// `continueWithTask` with the token before the block (trailing-closure friendly).
    @inlinable
    @discardableResult
    public func continueWithTask<V>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>
    ) -> BFTask<V> {
        continueWithTask(executor: executor, block: block, cancellationToken: cancellationToken)
    }

    // MARK: - continueOnSuccessWith, the block receives the task (Objective-C Bolts)

    /// Runs `block` with this task if it succeeds (Objective-C Bolts' `continueWithSuccessBlock:`,
    /// whose block reads `task.result`); a fault or a cancellation passes straight through to the
    /// returned task and `block` does not run, so a chain needs one error handler, at its end.
    ///
    /// ```swift
    /// findAsync(query).continueOnSuccessWith { task in task.result![0].name }
    /// ```
    ///
    /// `task.result` is never `nil` inside `block`. (Bolts-Swift's form, whose block receives the
    /// value, is the `BoltsSwift` module's `Task.continueOnSuccessWith`.)
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` if omitted.
    ///   - block: Receives this (succeeded) task. Returning a value succeeds the new task (nothing:
    ///     with `()`); throwing faults it (a cancellation error cancels it).
    ///   - cancellationToken: Checked first: if cancellation was requested when this task completes,
    ///     the new task is cancelled (even if this one faulted).
    /// - Returns: A task with `block`'s outcome, or this task's fault or cancellation.
    @inlinable
    @discardableResult
    public func continueOnSuccessWith<U>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> U,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<U> {
        if let now = continuedNow(
            executor, cancellationToken,
            { task, result in Self.onSuccess(result) { _ in Self.settled { try block(task) } } }
        ) {
            return now
        }
        return continuation(executor, cancellationToken) { next, task in
            task.withValue(passingFailureTo: next) { _ in next.complete(Result { try block(task) }) }
        }
    }

    /// Runs `block` with this task if it succeeds and continues with the task `block` returns
    /// (Objective-C Bolts' success block returning a `BFTask`: chaining without nesting); a fault or a
    /// cancellation passes straight through.
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` if omitted.
    ///   - block: Receives this (succeeded) task and returns the next task; returning
    ///     `BFTask.cancelled()` cancels the new task, throwing faults it.
    ///   - cancellationToken: Checked first: if cancellation was requested, the new task is cancelled.
    /// - Returns: A task with the outcome of `block`'s task, or this task's fault or cancellation.
    @inlinable
    @discardableResult
    public func continueOnSuccessWithTask<V>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<V> {
        if let now = continuedNow(
            executor, cancellationToken,
            { task, result in Self.onSuccess(result) { _ in Self.chained { try block(task) } } }
        ) {
            return now
        }
        return continuation(executor, cancellationToken) { next, task in
            task.withValue(passingFailureTo: next) { _ in Self.chain(next) { try block(task) } }
        }
    }

    /// `continueOnSuccessWith` with the token before the block, so the block can be a trailing closure:
    /// `task.continueOnSuccessWith(cancellationToken: token) { task in … }`.
    @inlinable
    @discardableResult
    public func continueOnSuccessWith<U>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> U
    ) -> BFTask<U> {
        continueOnSuccessWith(executor: executor, block: block, cancellationToken: cancellationToken)
    }

    /// `continueOnSuccessWithTask` with the token before the block.
    @inlinable
    @discardableResult
    public func continueOnSuccessWithTask<V>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>
    ) -> BFTask<V> {
        continueOnSuccessWithTask(executor: executor, block: block, cancellationToken: cancellationToken)
    }

    // MARK: - continueOnErrorWith

    /// Runs `block` with the error if this task faults, to recover with a value (Bolts-Swift's
    /// `continueOnErrorWith`); a success or a cancellation passes straight through and `block` does
    /// not run.
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` if omitted.
    ///   - block: Receives the error and returns a replacement result, or throws (faulting the new task
    ///     with the thrown error; a cancellation error cancels it).
    ///   - cancellationToken: Checked first: if cancellation was requested, the new task is cancelled.
    @inlinable
    @discardableResult
    public func continueOnErrorWith(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (any Error) throws -> T,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<T> {
        if let now = continuedNow(
            executor, cancellationToken,
            { task, _ in task.error.map { error in Self.settled { try block(error) } } ?? task.future }
        ) {
            return now
        }
        return continuation(executor, cancellationToken) { next, task in
            if let error = task.error {
                next.complete(Result { try block(error) })
            } else {
                next.completeWith(task.future)
            }
        }
    }

    /// Runs `block` with the error if this task faults and continues with the task it returns
    /// (Bolts-Swift's `continueOnErrorWithTask`); a success or a cancellation passes straight through.
    @inlinable
    @discardableResult
    public func continueOnErrorWith(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (any Error) throws -> BFTask<T>,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<T> {
        if let now = continuedNow(
            executor, cancellationToken,
            { task, _ in task.error.map { error in Self.chained { try block(error) } } ?? task.future }
        ) {
            return now
        }
        return continuation(executor, cancellationToken) { next, task in
            if let error = task.error {
                Self.chain(next) { try block(error) }
            } else {
                next.completeWith(task.future)
            }
        }
    }

    // MARK: - Shared plumbing

    /// Completes `next` with the outcome of the task `makeTask` returns (chaining without nesting), or
    /// fails it with the error `makeTask` throws.
    /// The fast path of every continuation, the combinators' (``Future/ifCompleted(_:)``): on the
    /// immediate executor, a completed task runs `step` right here, through the trampoline, as the
    /// callback that ``continuation(_:_:_:)`` registers would, and the new task is what `step` returns.
    /// `nil`, with nothing run, when the task is pending, the executor is another one, or the trampoline
    /// has no frame left: the caller then registers the continuation. The token is checked first, as in
    /// the callback. No registration and no weak reference: a completed task ignores cancellation
    /// requests, and a callback it never stores cannot keep it alive.
    @inlinable
    func continuedNow<U>(
        _ executor: BFExecutor,
        _ token: BFCancellationToken?,
        _ step: (BFTask<T>, Result<T, any Error>) -> Future<U, any Error>
    ) -> BFTask<U>? {
        guard executor.context.isImmediate else { return nil }
        return future.ifCompleted { result in
            if token?.isCancellationRequested == true { return BFTask<U>.cancelled() }
            return BFTask<U>(future: step(self, result))
        }
    }

    /// The fast path's outcome of a block that returns a value: settled with it, or faulted with what
    /// it throws (a cancellation error cancels).
    @inlinable
    static func settled<U>(_ block: () throws -> U) -> Future<U, any Error> {
        Future(result: Result { try block() })
    }

    /// The fast path's outcome of a block that returns a task: that task's outcome (``Future/following(_:)``:
    /// the task itself once completed, as one of its consumers otherwise), or faulted with what it throws.
    @inlinable
    static func chained<U>(_ block: () throws -> BFTask<U>) -> Future<U, any Error> {
        do {
            return Future.following(try block().future)
        } catch {
            return Future(error: error)
        }
    }

    /// The fast path of the success blocks: runs `body` with the value; a fault or a cancellation passes
    /// straight through.
    @inlinable
    static func onSuccess<U>(
        _ result: Result<T, any Error>, _ body: (T) -> Future<U, any Error>
    ) -> Future<U, any Error> {
        switch result {
        case .success(let value): return body(value)
        case .failure(let error): return Future(error: error)
        }
    }

    @inlinable
    static func chain<U>(_ next: Future<U, any Error>, _ makeTask: () throws -> BFTask<U>) {
        next.completeWith { try makeTask().future }
    }

    /// Runs `body` with this completed task's value; a fault or cancellation goes straight to `next`.
    @inlinable
    func withValue<U>(passingFailureTo next: Future<U, any Error>, _ body: (T) -> Void) {
        switch future.result {
        case .success(let value):
            body(value)
        case .failure(let error):
            next.complete(.failure(error))
        case nil:
            preconditionFailure("a continuation runs only once its task has completed")
        }
    }

    /// Registers `body` to run on `executor` once this task completes, unless `token` was cancelled by
    /// then (the new task is then cancelled). `body` completes the new task's cell.
    ///
    /// A continuation is a callback of the core cell on the executor's context, so it has the cell's
    /// guarantees (GUARANTEES.md): as in Bolts, continuations are independent — each is handed to its
    /// executor as soon as the task completes, and one waiting on a busy executor never holds back
    /// another; those on one serial executor run in registration order; an executor that runs a task twice
    /// runs the continuation once (reported); `body` runs through the trampoline (inline for
    /// ``BFExecutor/immediate``, inside the executor's task otherwise), so a million chained or recursing
    /// continuations nest a bounded number of frames; and a cancellation request on the new task travels
    /// to this one, as one of its consumers.
    ///
    /// Memory: the callback stored in this task's cell does not capture the cell (it holds it weakly
    /// and receives it back when it runs), so a pending task that is abandoned releases its
    /// continuations and the tasks they would have completed.
    @inlinable
    func continuation<U>(
        _ executor: BFExecutor,
        _ token: BFCancellationToken?,
        _ body: @escaping @Sendable (Future<U, any Error>, BFTask<T>) -> Void
    ) -> BFTask<U> {
        let next = Future<U, any Error>()
        next.depend(on: future, executor.context) { [weak source = future] result in
            // The source may be gone when an executor runs the continuation later: the result is enough.
            let task = BFTask(future: source ?? Future(result: result))
            if token?.isCancellationRequested == true {
                next.complete(.failure(FuturesError.cancelled))
            } else {
                body(next, task)
            }
        }
        return BFTask<U>(future: next)
    }
}

extension BFTask {
    /// Starts `block` on `executor` and returns a task for its value (Bolts' `taskFromExecutor:withBlock:`).
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` (at once, on this thread) if omitted.
    ///   - block: Returns the value, or throws to fault the task (a cancellation error cancels it).
    @inlinable
    @_disfavoredOverload
    public init(executor: BFExecutor = .default, block: @escaping @Sendable () throws -> T) {
        self = BFTask<Void>(result: ()).continueWith(executor: executor) { _ in try block() }
    }

    /// Starts `block` on `executor` and returns a task that completes when the task `block` returns does
    /// (preferred over the value form when `block` returns a task, so tasks never nest).
    @inlinable
    public init(executor: BFExecutor = .default, block: @escaping @Sendable () throws -> BFTask<T>) {
        self = BFTask<Void>(result: ()).continueWithTask(executor: executor) { _ in try block() }
    }
}
