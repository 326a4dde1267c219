import Futures

// One declaration per name and kind of closure (Bolts-Swift's own set): a closure that returns a value
// uses `continueWith`, `continueOnSuccessWith` or `continueOnErrorWith`; one that returns a task uses the
// `…Task` name. Each is generic only in what the closure returns, so chains type-check at once.
//
// Each writes its step once, a closure literal: what the new task completes with, from this task's outcome
// (when the closure runs: always, on a success, on a fault with an error of a type; what it returns: a value,
// or a task to follow). Each forwards it to the one continuation, `continued`, which has the two paths of the
// core's combinators: on `.immediate` over a completed task, the step runs at once and the new task is built
// from its answer (`continuedNow`); otherwise the new task is derived from this one at the caller's `file`
// and `line`, and stores the step. Each is `@inline(__always)`, as `continued` is: inlined into the caller,
// the closure literal is known, and the stored step captures what the closure captures instead of boxing
// the closure. `continueWith`, the form that ends most chains (Bolts-Swift has no continuation that returns
// nothing), has its own slow path: it derives a `ContinueWithTask`, which stores the caller's closure
// itself, so a closure that captures something costs no box even where the compiler keeps the call out of
// line.

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
    ///   - file: The caller's file, where the step is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the step is recorded.
    /// - Returns: A task completed with `continuation`'s outcome.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueWith<S>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (Task<TResult>) throws -> S,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<S> {
        if let now = continuedNow(executor, { _ in Task<S>(completed: settle { try continuation(self) }) }) {
            return now
        }
        let next = ContinueWithTask<S, TResult>(source: self, continuation: continuation)
        next.derive(after: self, executor.context, step: "continueWith", file: file, line: line) { _ in
            next.fire()
        }
        return next
    }

    /// Runs `continuation` with this task once it completes (whatever its state) and returns a task that
    /// completes when the task `continuation` returns does: chaining without nesting.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives this (completed) task and returns the task to follow; an error it throws
    ///     faults the new task (``CancelledError`` cancels it).
    ///   - file: The caller's file, where the step is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the step is recorded.
    /// - Returns: A task with the outcome of `continuation`'s task (that task itself when it has completed
    ///   by the time `continuation` returns on ``Executor/immediate``, else a new task that follows it).
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueWithTask<S>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (Task<TResult>) throws -> Task<S>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<S> {
        continued(
            executor, "continueWithTask", file, line, passing: true,
            { _, task in .following { try continuation(task!) } })
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
    ///   - file: The caller's file, where the step is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the step is recorded.
    /// - Returns: A task with `continuation`'s outcome, or this task's fault or cancellation.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnSuccessWith<S>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (TResult) throws -> S,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<S> {
        continued(
            executor, "continueOnSuccessWith", file, line, passing: false,
            { result, _ in .onSuccess(result) { value in .value { try continuation(value) } } })
    }

    /// Runs `continuation` with the result if this task succeeds and continues with the task it returns;
    /// a fault or a cancellation passes straight through and `continuation` does not run.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the result and returns the task to follow; an error it throws faults
    ///     the new task (``CancelledError`` cancels it).
    ///   - file: The caller's file, where the step is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the step is recorded.
    /// - Returns: A task with the outcome of `continuation`'s task, or this task's fault or cancellation.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnSuccessWithTask<S>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (TResult) throws -> Task<S>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<S> {
        continued(
            executor, "continueOnSuccessWithTask", file, line, passing: false,
            { result, _ in .onSuccess(result) { value in .following { try continuation(value) } } })
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
    ///   - file: The caller's file, where the step is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the step is recorded.
    /// - Returns: A task with this task's outcome, or `continuation`'s.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnErrorWith<E: Error>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (E) throws -> TResult,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<TResult> {
        continued(
            executor, "continueOnErrorWith", file, line, passing: false,
            { result, _ in .onFault(result, as: E.self) { error in .value { try continuation(error) } } })
    }

    /// Runs `continuation` with the error if this task faults, to recover with a result; a success or a
    /// cancellation passes straight through.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the error and returns the result instead; an error it throws faults the
    ///     new task (``CancelledError`` cancels it).
    ///   - file: The caller's file, where the step is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the step is recorded.
    /// - Returns: A task with this task's outcome, or `continuation`'s.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnErrorWith(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (any Error) throws -> TResult,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<TResult> {
        continued(
            executor, "continueOnErrorWith", file, line, passing: false,
            { result, _ in .onFault(result, as: (any Error).self) { error in .value { try continuation(error) } } })
    }

    /// Runs `continuation` with the error if this task faults with an error of type `E` and continues with
    /// the task it returns; a success, a cancellation, or an error of another type passes straight through.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the error and returns the task to follow; an error it throws faults the
    ///     new task (``CancelledError`` cancels it).
    ///   - file: The caller's file, where the step is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the step is recorded.
    /// - Returns: A task with this task's outcome, or that of `continuation`'s task.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnErrorWithTask<E: Error>(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (E) throws -> Task<TResult>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<TResult> {
        continued(
            executor, "continueOnErrorWithTask", file, line, passing: false,
            { result, _ in .onFault(result, as: E.self) { error in .following { try continuation(error) } } })
    }

    /// Runs `continuation` with the error if this task faults and continues with the task it returns; a
    /// success or a cancellation passes straight through.
    ///
    /// - Parameters:
    ///   - executor: Where `continuation` runs; ``Executor/default`` if omitted.
    ///   - continuation: Receives the error and returns the task to follow; an error it throws faults the
    ///     new task (``CancelledError`` cancels it).
    ///   - file: The caller's file, where the step is recorded (failure traces, pending-futures report).
    ///   - line: The caller's line, where the step is recorded.
    /// - Returns: A task with this task's outcome, or that of `continuation`'s task.
    @inlinable
    @inline(__always)
    @discardableResult
    public func continueOnErrorWithTask(
        _ executor: Executor = .default,
        continuation: @escaping @Sendable (any Error) throws -> Task<TResult>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Task<TResult> {
        continued(
            executor, "continueOnErrorWithTask", file, line, passing: false,
            { result, _ in .onFault(result, as: (any Error).self) { error in .following { try continuation(error) } } })
    }

    // MARK: - The one continuation

    /// The fast path of every continuation, the core combinators' (`ifCompleted`): on `.immediate` over a
    /// completed task, `make` runs right here, through the trampoline, and builds the new task from this
    /// task's outcome, with no callback registered. `nil`, with nothing run, when the task is pending, the
    /// executor is another one, failure tracing is on, or the trampoline has no frame left: the caller
    /// then derives the new task (``continued(_:_:_:_:passing:_:)``).
    @inlinable
    @inline(__always)
    func continuedNow<S>(
        _ executor: Executor,
        _ make: (Result<TResult, any Error>) -> Task<S>
    ) -> Task<S>? {
        // The completed bit first, inline: a pending task skips the call (a stale `false` only means the
        // slow path, which finds the outcome and runs the step at once).
        guard executor.isImmediate, isKnownCompleted else { return nil }
        return ifCompleted(make)
    }

    /// Every continuation but `continueWith`'s slow path, and ``executeWithTask(_:closure:file:line:)``:
    /// `step` answers, from this task's outcome and this task itself when `passing` (for the forms whose
    /// closure receives it; else `nil`), what the new task completes with.
    ///
    /// `step` is an autoclosure around the form's closure literal, so the closure is made on the path that
    /// runs it: the fast path (``continuedNow(_:_:)``) calls it at once, and the compiler, seeing it whole,
    /// allocates nothing for it. Otherwise the new task is derived from this one through the core's dependency
    /// primitive (`derive(after:)`: one consumer of this task, a callback on the executor's context,
    /// released once it has run), so it has the core's guarantees: continuations of one task are
    /// independent, stack-safe on `.immediate` and `.default` at any depth, cancellation requests travel
    /// upstream as one consumer's ask (G8), and the step is named `name` at the caller's `file`:`line` in
    /// failure traces and the pending-futures report. The new task carries the step (and this task when
    /// `passing`) until the step runs.
    @inlinable
    @inline(__always)
    func continued<S>(
        _ executor: Executor,
        _ name: StaticString,
        _ file: StaticString,
        _ line: UInt,
        passing: Bool,
        _ step: @autoclosure () -> @Sendable (Result<TResult, any Error>, Task<TResult>?) -> Next<S>
    ) -> Task<S> {
        if let now = continuedNow(executor, { result in step()(result, passing ? self : nil).newTask }) { return now }
        let next = ContinuationTask<S, TResult>(source: passing ? self : nil, step: step())
        next.derive(after: self, executor.context, step: name, file: file, line: line) { result in
            next.fire(result)
        }
        return next
    }
}

/// What a continuation completes its new task with: an outcome, or a task to follow.
@usableFromInline
enum Next<TResult: Sendable> {
    case settled(Result<TResult, any Error>)
    case follow(Task<TResult>)

    /// The value `body` returns, or the error it throws (``CancelledError``: cancelled).
    @inlinable
    static func value(_ body: () throws -> TResult) -> Next {
        .settled(settle(body))
    }

    /// The task `body` returns, to follow (chaining without nesting), or the error it throws
    /// (``CancelledError``: cancelled).
    @inlinable
    static func following(_ body: () throws -> Task<TResult>) -> Next {
        do {
            return .follow(try body())
        } catch {
            return .settled(settle { throw error })
        }
    }

    /// The success forms: `body` with the value of a success; a fault or a cancellation passes straight
    /// through.
    @inlinable
    static func onSuccess<Value>(_ result: Result<Value, any Error>, _ body: (Value) -> Next) -> Next {
        switch result {
        case .success(let value): body(value)
        case .failure(let error): .settled(.failure(error))
        }
    }

    /// The error forms: `body` with the error of a fault (not a cancellation) with an error of type `E`;
    /// any other outcome passes straight through.
    @inlinable
    static func onFault<E>(_ result: Result<TResult, any Error>, as type: E.Type, _ body: (E) -> Next) -> Next {
        guard case .failure(let error) = result, !isCancellationError(error), let error = error as? E else {
            return .settled(result)
        }
        return body(error)
    }

    /// The new task on the fast path: one completed with the outcome; or the task to follow once it has
    /// completed (a request on a completed task does nothing, so there is nothing to forward), else a new
    /// task that follows it as one of its consumers (the core's `completeWith`).
    @inlinable
    var newTask: Task<TResult> {
        switch self {
        case .settled(let result): return Task(completed: result)
        case .follow(let other):
            if other.isCompleted { return other }
            let task = Task<TResult>(pending: ())
            task.completeWith(other)
            return task
        }
    }

    /// Completes `task` with the outcome, or with the other task's once it has one (as one of its
    /// consumers).
    @inlinable
    func complete(_ task: Task<TResult>) {
        switch self {
        case .settled(let result): task.complete(result)
        case .follow(let other): task.completeWith(other)
        }
    }
}

/// A succeeded `Task<Void>`, the input that ``Task/init(_:closure:file:line:)`` and
/// ``Task/executeWithTask(_:closure:file:line:)`` start from. A completed task never changes: it holds its
/// success and nothing else.
let succeededVoidTask = Task<Void>(completed: .success(()))

/// A task derived from another one by a continuation, carrying the step that completes it.
///
/// The callback that ``Task/continued(_:_:_:_:passing:_:)`` registers on the source captures this one object:
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
    var step: (@Sendable (Result<Source, any Error>, Task<Source>?) -> Next<TResult>)?

    /// The task continued from, for the forms whose closure receives it (their step receives it); `nil`
    /// for the others.
    @usableFromInline
    @exclusivity(unchecked)
    var source: Task<Source>?

    @inlinable
    init(
        source: Task<Source>?,
        step: @escaping @Sendable (Result<Source, any Error>, Task<Source>?) -> Next<TResult>
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
        self.init(source: nil) { _, _ in .settled(.failure(FuturesError.cancelled)) }
        step = nil
        resolver { [self] result in
            if !complete(result) {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(#fileID)", line: #line))
            }
        }
    }

    /// Runs the step with the source's result (and the source, for a form whose closure receives it) and
    /// completes this task with its answer, releasing both as soon as the step has run.
    @inlinable
    func fire(_ result: Result<Source, any Error>) {
        guard let step = step.take() else { return }
        step(result, source.take()).complete(self)
    }
}

/// The task ``Task/continueWith(_:continuation:file:line:)`` derives from a pending task: it carries the
/// caller's closure itself and the task that closure receives, so a closure that captures something
/// costs no context box around it (``ContinuationTask`` wraps its closure in a step).
@usableFromInline
final class ContinueWithTask<TResult: Sendable, Source: Sendable>: Task<TResult>, @unchecked Sendable {
    // `@unchecked Sendable`: `continuation` and `source` are set in `init`, before the task is shared,
    // and taken once in `fire()`, the body of the one callback `continueWith` registers on the source: a
    // callback runs at most once (G2), on one thread. Nothing else reads or writes them; `deinit`, which
    // destroys what is left, runs after the last reference, the callback's included, is gone. For the
    // same reason no two accesses overlap, so the runtime's exclusivity check is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    var continuation: (@Sendable (Task<Source>) throws -> TResult)?

    /// The task continued from, which `continuation` receives.
    @usableFromInline
    @exclusivity(unchecked)
    var source: Task<Source>?

    @inlinable
    init(source: Task<Source>, continuation: @escaping @Sendable (Task<Source>) throws -> TResult) {
        self.continuation = continuation
        self.source = source
        super.init(pending: ())
    }

    /// ``Task/init(resolver:)``, which every subclass must provide: the face never makes a continuation
    /// this way. The task has no closure and no source, and `resolver` completes it.
    @usableFromInline
    required init(
        resolver: (_ complete: @escaping @Sendable (Result<TResult, any Error>) -> Void) -> Void
    ) {
        continuation = nil
        source = nil
        super.init(pending: ())
        resolver { [self] result in
            if !complete(result) {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(#fileID)", line: #line))
            }
        }
    }

    /// Runs the closure with the source, once it has completed, and completes this task with its
    /// outcome, releasing both (the closure and what it captured, and the source) as soon as it has run.
    @inlinable
    func fire() {
        guard let continuation = continuation.take(), let source = source.take() else { return }
        complete(settle { try continuation(source) })
    }
}
