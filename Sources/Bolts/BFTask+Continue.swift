import Futures

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
///   that returns a task to a value form would give a nested `BFTask<BFTask<V>>` that does not wait for
///   the inner task: the compiler names the `…Task` form where the types show it, and otherwise the call
///   is reported at run time (`FuturesDiagnostic.nestedTask(type:use:file:line:)`, at the caller's line).
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
    /// A `block` that returns a `BFTask` belongs to ``continueWithTask(executor:block:cancellationToken:file:line:)``:
    /// here its task would be the new task's value, not waited for, so the call is reported as
    /// `FuturesDiagnostic.nestedTask(type:use:file:line:)` with `file` and `line`.
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` if omitted.
    ///   - block: Receives this (completed) task. Returning a value succeeds the new task with it
    ///     (nothing: with `()`); throwing faults it with the error (a cancellation error cancels it).
    ///   - cancellationToken: Checked just before `block` would run: if cancellation was requested,
    ///     `block` does not run and the new task is cancelled.
    ///   - file: The caller's file, for the report of a nested task and the failure trace.
    ///   - line: The caller's line, for the report of a nested task and the failure trace.
    /// - Returns: A task completed with `block`'s outcome.
    @inlinable
    @discardableResult
    public func continueWith<U>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> U,
        cancellationToken: BFCancellationToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<U> {
        continued(
            executor, cancellationToken, "continueWith", file, line, nested: "continueWithTask",
            { task, _ in
                .value { try block(task) }
            })
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
    ///   - file: The caller's file, for the failure trace.
    ///   - line: The caller's line, for the failure trace.
    /// - Returns: A task with the outcome of `block`'s task.
    @inlinable
    @discardableResult
    public func continueWithTask<V>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>,
        cancellationToken: BFCancellationToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<V> {
        continued(
            executor, cancellationToken, "continueWithTask", file, line,
            { task, _ in
                .following { try block(task) }
            })
    }

    /// The value form of `continueWith` with the token before the block, so the block can be a
    /// trailing closure: `task.continueWith(cancellationToken: token) { task in … }`. A task-returning
    /// `block` is reported as in ``continueWith(executor:block:cancellationToken:file:line:)``.
    @inlinable
    @discardableResult
    public func continueWith<U>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> U,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<U> {
        continueWith(executor: executor, block: block, cancellationToken: cancellationToken, file: file, line: line)
    }

    /// `continueWithTask` with the token before the block (trailing-closure friendly).
    @inlinable
    @discardableResult
    public func continueWithTask<V>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<V> {
        continueWithTask(executor: executor, block: block, cancellationToken: cancellationToken, file: file, line: line)
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
    /// value, is the `BoltsSwift` module's `Task.continueOnSuccessWith`.) A task-returning `block` belongs
    /// to ``continueOnSuccessWithTask(executor:block:cancellationToken:file:line:)`` and is reported here as
    /// `FuturesDiagnostic.nestedTask(type:use:file:line:)`.
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` if omitted.
    ///   - block: Receives this (succeeded) task. Returning a value succeeds the new task (nothing:
    ///     with `()`); throwing faults it (a cancellation error cancels it).
    ///   - cancellationToken: Checked first: if cancellation was requested when this task completes,
    ///     the new task is cancelled (even if this one faulted).
    ///   - file: The caller's file, for the report of a nested task and the failure trace.
    ///   - line: The caller's line, for the report of a nested task and the failure trace.
    /// - Returns: A task with `block`'s outcome, or this task's fault or cancellation.
    @inlinable
    @discardableResult
    public func continueOnSuccessWith<U>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> U,
        cancellationToken: BFCancellationToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<U> {
        continued(
            executor, cancellationToken, "continueOnSuccessWith", file, line, nested: "continueOnSuccessWithTask",
            { task, result in .onSuccess(result) { .value { try block(task) } } })
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
    ///   - file: The caller's file, for the failure trace.
    ///   - line: The caller's line, for the failure trace.
    /// - Returns: A task with the outcome of `block`'s task, or this task's fault or cancellation.
    @inlinable
    @discardableResult
    public func continueOnSuccessWithTask<V>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>,
        cancellationToken: BFCancellationToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<V> {
        continued(
            executor, cancellationToken, "continueOnSuccessWithTask", file, line,
            { task, result in
                .onSuccess(result) { .following { try block(task) } }
            })
    }

    /// `continueOnSuccessWith` with the token before the block, so the block can be a trailing closure:
    /// `task.continueOnSuccessWith(cancellationToken: token) { task in … }`. A task-returning `block` is
    /// reported as in ``continueOnSuccessWith(executor:block:cancellationToken:file:line:)``.
    @inlinable
    @discardableResult
    public func continueOnSuccessWith<U>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> U,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<U> {
        continueOnSuccessWith(
            executor: executor, block: block, cancellationToken: cancellationToken, file: file, line: line)
    }

    /// `continueOnSuccessWithTask` with the token before the block.
    @inlinable
    @discardableResult
    public func continueOnSuccessWithTask<V>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<V> {
        continueOnSuccessWithTask(
            executor: executor, block: block, cancellationToken: cancellationToken, file: file, line: line)
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
    ///   - file: The caller's file, for the failure trace.
    ///   - line: The caller's line, for the failure trace.
    @inlinable
    @discardableResult
    public func continueOnErrorWith(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (any Error) throws -> T,
        cancellationToken: BFCancellationToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<T> {
        continued(
            executor, cancellationToken, "continueOnErrorWith", file, line,
            { task, result in
                .onFault(task, result) { error in .value { try block(error) } }
            })
    }

    /// Runs `block` with the error if this task faults and continues with the task it returns
    /// (Bolts-Swift's `continueOnErrorWithTask`); a success or a cancellation passes straight through.
    @inlinable
    @discardableResult
    public func continueOnErrorWith(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (any Error) throws -> BFTask<T>,
        cancellationToken: BFCancellationToken? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> BFTask<T> {
        continued(
            executor, cancellationToken, "continueOnErrorWith", file, line,
            { task, result in
                .onFault(task, result) { error in .following { try block(error) } }
            })
    }

    // MARK: - The one continuation: the core's fast path and `derive`

    /// Every continuation above, and the `init(executor:file:line:block:)` forms: `step` answers, from
    /// this task and its outcome, what the new task completes with. The forms differ only in their step
    /// (on a success, on a fault or always; the block's value or its task) and their name.
    ///
    /// A value form names in `nested` the form that a task-returning block belongs to, and such a block
    /// is reported (`FuturesDiagnostic.nestedTask(type:use:file:line:)`, at `file`:`line`). Then the fast
    /// path (`continuedNow(_:_:_:)`), else the slow one (`continuation(_:_:_:_:_:_:)`), which stores
    /// `step`. `step` is an autoclosure around the form's closure literal, so the closure is made on the
    /// path that runs it: the fast path calls it at once, and the compiler, seeing it whole, allocates
    /// nothing for it.
    @inlinable
    @inline(__always)
    func continued<U>(
        _ executor: BFExecutor,
        _ token: BFCancellationToken?,
        _ name: StaticString,
        _ file: StaticString,
        _ line: UInt,
        nested: String? = nil,
        _ step: @autoclosure () -> @Sendable (BFTask<T>, Result<T, any Error>) -> Next<U>
    ) -> BFTask<U> {
        if let nested, Self.mayBeTask(U.self) { reportNested(U.self, use: nested, file: file, line: line) }
        if let now = continuedNow(executor, token, { task, result in step()(task, result) }) { return now }
        return continuation(executor, token, name, file, line, step())
    }

    /// What a continuation completes its new task with: an outcome, or another task's future to follow.
    @usableFromInline
    enum Next<S: Sendable> {
        case settled(Result<S, any Error>)
        case follow(Future<S, any Error>)

        /// The value `body` returns, or the error it throws.
        @inlinable
        static func value(_ body: () throws -> S) -> Next<S> {
            .settled(Result { try body() })
        }

        /// The future of the task `makeTask` returns (chaining without nesting), or the error it throws.
        @inlinable
        static func following(_ makeTask: () throws -> BFTask<S>) -> Next<S> {
            do {
                return .follow(try makeTask().future)
            } catch {
                return .settled(.failure(error))
            }
        }

        /// The success blocks: `body` on a success; a fault or a cancellation passes straight through.
        @inlinable
        static func onSuccess<R>(_ result: Result<R, any Error>, _ body: () -> Next<S>) -> Next<S> {
            switch result {
            case .success: return body()
            case .failure(let error): return .settled(.failure(error))
            }
        }

        /// The error blocks: `body` with the error of a fault; a success or a cancellation passes straight
        /// through (as `task` itself).
        @inlinable
        static func onFault(_ task: BFTask<S>, _ result: Result<S, any Error>, _ body: (any Error) -> Next<S>)
            -> Next<S>
        {
            if case .failure(let error) = result, !isCancellationError(error) { return body(error) }
            return .follow(task.future)
        }

        /// The new task's future on the fast path: the outcome, or one following the other task (the
        /// core's `following`: that future itself once it has completed, one of its consumers otherwise).
        @inlinable
        var future: Future<S, any Error> {
            switch self {
            case .settled(let result): Future(result: result)
            case .follow(let other): Future.following(other)
            }
        }

        /// Completes `next` with the outcome, or with the other task's once it has one (as one of its
        /// consumers).
        @inlinable
        func complete(_ next: Future<S, any Error>) {
            switch self {
            case .settled(let result): next.complete(result)
            case .follow(let other): next.completeWith(other)
            }
        }
    }

    /// The fast path of every continuation, the combinators' (`ifCompleted`): on the immediate executor,
    /// a completed task runs `step` right here, through the trampoline, and the new task is built from
    /// what `step` answers. `nil`, with nothing run, when the task is pending, the executor is another
    /// one, or the trampoline has no frame left: the caller then derives the new task
    /// (`continuation(_:_:_:_:_:_:)`). The token is checked first, as there. No registration and no weak
    /// reference: a completed task ignores cancellation requests, and a callback it never stores cannot
    /// keep it alive.
    @inlinable
    func continuedNow<U>(
        _ executor: BFExecutor,
        _ token: BFCancellationToken?,
        _ step: (BFTask<T>, Result<T, any Error>) -> Next<U>
    ) -> BFTask<U>? {
        guard executor.context.isImmediate else { return nil }
        return future.ifCompleted { result in
            if token?.isCancellationRequested == true { return BFTask<U>.cancelled() }
            return BFTask<U>(future: step(self, result).future)
        }
    }

    /// The slow path of every continuation: a step derived from this task's future through the core's
    /// dependency primitive (`derive`), on the executor's context; `step` runs with this task unless
    /// `token` was cancelled by then (the new task is then cancelled). `name`, `file` and `line` name the
    /// continuation and its caller in a failure trace.
    ///
    /// So a continuation has the core's guarantees (GUARANTEES.md): as in Bolts, continuations are
    /// independent — each is handed to its executor as soon as the task completes, and one waiting on a
    /// busy executor never holds back another; those on one serial executor run in registration order;
    /// an executor that runs a task twice runs the continuation once (reported); `step` runs through the
    /// trampoline, so a million chained or recursing continuations nest a bounded number of frames; a
    /// cancellation request on the new task travels to this one, as one of its consumers; and a traced
    /// failure names the continuation as a step.
    ///
    /// Memory: the derived step holds this task's cell weakly (the cell holds the step until it runs), so
    /// a pending task that is abandoned releases its continuations and the tasks they would have
    /// completed; a step that runs once the cell is gone receives a task with the same outcome.
    @inlinable
    func continuation<U>(
        _ executor: BFExecutor,
        _ token: BFCancellationToken?,
        _ name: StaticString,
        _ file: StaticString,
        _ line: UInt,
        _ step: @escaping @Sendable (BFTask<T>, Result<T, any Error>) -> Next<U>
    ) -> BFTask<U> {
        BFTask<U>(
            future: future.derive(executor.context, step: name, file: file, line: line) {
                [weak source = future] result, next in
                if token?.isCancellationRequested == true {
                    next.complete(.failure(FuturesError.cancelled))
                } else {
                    step(BFTask(future: source ?? Self.standIn(for: result)), result).complete(next)
                }
            })
    }

    /// The cell a continuation receives when its task's cell is gone by the time it runs (nobody holds
    /// it, so nobody can compare identities): one with the same outcome, counted as looked at, so a
    /// failure is not reported as unobserved a second time.
    @usableFromInline
    static func standIn(for result: Result<T, any Error>) -> Future<T, any Error> {
        let future = Future(result: result)
        _ = future.result
        return future
    }

    /// Whether `U` is a `BFTask` type. The layout tests come first: they are constants once the caller is
    /// specialised, so for results that cannot be a task (plain values such as `Int`, `Bool`, `Void`, or
    /// anything not laid out as one reference) the whole check folds away; only the others pay the
    /// conformance look-up.
    @inlinable
    static func mayBeTask<U>(_: U.Type) -> Bool {
        !_isPOD(U.self) && MemoryLayout<U>.size == MemoryLayout<BFTask<Int>>.size
            && U.self is any BFTaskProtocol.Type
    }

    /// Reports a block that returned a task to a value form (a nested `BFTask<BFTask<…>>`).
    @usableFromInline
    func reportNested<U>(_: U.Type, use: String, file: StaticString, line: UInt) {
        FuturesDiagnostics.report(
            .nestedTask(type: "BFTask<\(U.self)>", use: use, file: String(describing: file), line: line))
    }
}

extension BFTask {
    /// Starts `block` on `executor` and returns a task for its value (Bolts' `taskFromExecutor:withBlock:`).
    ///
    /// The task is derived, through the core's dependency primitive, from a completed `BFTask<Void>`: it is
    /// named `BFTask` at the caller's `file`:`line` in failure traces and the pending-futures report while
    /// `block` waits for `executor`.
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` (at once, on this thread) if omitted.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    ///   - block: Returns the value, or throws to fault the task (a cancellation error cancels it).
    @inlinable
    @_disfavoredOverload
    public init(
        executor: BFExecutor = .default,
        file: StaticString = #fileID,
        line: UInt = #line,
        block: @escaping @Sendable () throws -> T
    ) {
        self = BFTask<Void>(result: ()).continued(
            executor, nil, "BFTask", file, line, nested: "BFTask(executor:block:) typed by the inner task's value",
            { _, _ in .value { try block() } })
    }

    /// Starts `block` on `executor` and returns a task that completes when the task `block` returns does
    /// (preferred over the value form when `block` returns a task, so tasks never nest).
    ///
    /// The task is named `BFTask` at the caller's `file`:`line` in failure traces and the pending-futures
    /// report, as the value form's is.
    ///
    /// - Parameters:
    ///   - executor: Where `block` runs; ``BFExecutor/default`` (at once, on this thread) if omitted.
    ///   - file: The caller's file, where the task is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the task is recorded.
    ///   - block: Returns the task to follow, or throws to fault the task (a cancellation error cancels it).
    @inlinable
    public init(
        executor: BFExecutor = .default,
        file: StaticString = #fileID,
        line: UInt = #line,
        block: @escaping @Sendable () throws -> BFTask<T>
    ) {
        self = BFTask<Void>(result: ()).continued(
            executor, nil, "BFTask", file, line,
            { _, _ in
                .following { try block() }
            })
    }
}
