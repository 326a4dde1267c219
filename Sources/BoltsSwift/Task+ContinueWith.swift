import Futures

// One declaration per name and kind of closure (Bolts-Swift's own set): a closure that returns a value
// uses `continueWith`, `continueOnSuccessWith` or `continueOnErrorWith`; one that returns a task uses the
// `…Task` name. Each is generic only in what the closure returns, so chains type-check at once.
//
// Each is `@inline(__always)`: inlined into the caller, the closure literal is known, and the step that the
// slow path stores captures what the closure captures instead of boxing the closure. Each has the two
// paths of the core's combinators: on `.immediate` over a completed task, the closure runs at once and the
// new task is built from its outcome (`continuedNow`); otherwise the new task is derived from this one
// (`continued`) at the caller's `file` and `line`. `continueWith`, the form that ends most chains (Bolts-Swift
// has no continuation that returns nothing), derives a `ContinueWithTask`, which stores the caller's
// closure itself: a closure that captures something then costs no box even where the compiler keeps the
// call out of line.

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
        if let now = continuedNow(executor, { _ in Task<S>.settled(settle { try continuation(self) }) }) {
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
        if let now = continuedNow(executor, { _ in Task<S>.following { try continuation(self) } }) { return now }
        return continued(executor, "continueWithTask", file, line, passing: true) { _, next in
            let source = next.takeSource()
            next.completeFollowing { try continuation(source) }
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
        if let now = continuedNow(
            executor,
            { result in
                switch result {
                case .success(let value): Task<S>.settled(settle { try continuation(value) })
                case .failure(let error): Task<S>(completed: .failure(error))
                }
            })
        {
            return now
        }
        return continued(executor, "continueOnSuccessWith", file, line, passing: false) { result, next in
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
        if let now = continuedNow(
            executor,
            { result in
                switch result {
                case .success(let value): Task<S>.following { try continuation(value) }
                case .failure(let error): Task<S>(completed: .failure(error))
                }
            })
        {
            return now
        }
        return continued(executor, "continueOnSuccessWithTask", file, line, passing: false) { result, next in
            switch result {
            case .success(let value): next.completeFollowing { try continuation(value) }
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
        if let now = continuedNow(
            executor,
            { result in
                guard let error = Self.recoverable(result, as: E.self) else { return Self.settled(result) }
                return Self.settled(settle { try continuation(error) })
            })
        {
            return now
        }
        return continued(executor, "continueOnErrorWith", file, line, passing: false) { result, next in
            if let error = Self.recoverable(result, as: E.self) {
                next.complete(settle { try continuation(error) })
            } else {
                next.complete(result)
            }
        }
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
        if let now = continuedNow(
            executor,
            { result in
                guard let error = Self.recoverable(result, as: (any Error).self) else { return Self.settled(result) }
                return Self.settled(settle { try continuation(error) })
            })
        {
            return now
        }
        return continued(executor, "continueOnErrorWith", file, line, passing: false) { result, next in
            if let error = Self.recoverable(result, as: (any Error).self) {
                next.complete(settle { try continuation(error) })
            } else {
                next.complete(result)
            }
        }
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
        if let now = continuedNow(
            executor,
            { result in
                guard let error = Self.recoverable(result, as: E.self) else { return Self.settled(result) }
                return Self.following { try continuation(error) }
            })
        {
            return now
        }
        return continued(executor, "continueOnErrorWithTask", file, line, passing: false) { result, next in
            if let error = Self.recoverable(result, as: E.self) {
                next.completeFollowing { try continuation(error) }
            } else {
                next.complete(result)
            }
        }
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
        if let now = continuedNow(
            executor,
            { result in
                guard let error = Self.recoverable(result, as: (any Error).self) else { return Self.settled(result) }
                return Self.following { try continuation(error) }
            })
        {
            return now
        }
        return continued(executor, "continueOnErrorWithTask", file, line, passing: false) { result, next in
            if let error = Self.recoverable(result, as: (any Error).self) {
                next.completeFollowing { try continuation(error) }
            } else {
                next.complete(result)
            }
        }
    }

    // MARK: - The one continuation primitive

    /// A new task completed with `result`.
    @inlinable
    static func settled(_ result: Result<TResult, any Error>) -> Task<TResult> {
        Task(completed: result)
    }

    /// The task `body` returns once it has completed (a request on a completed task does nothing, so there
    /// is nothing to forward), else a new task that follows it as one of its consumers (the core's
    /// `completeWith`); a task faulted with the error `body` throws (``CancelledError``: cancelled).
    @inlinable
    static func following(_ body: () throws -> Task<TResult>) -> Task<TResult> {
        let other: Task<TResult>
        do {
            other = try body()
        } catch {
            return Task(completed: settle { throw error })
        }
        if other.isCompleted { return other }
        let task = Task(pending: ())
        task.completeWith(other)
        return task
    }

    /// Completes this task with the outcome of the task `body` returns, once it has one, as one of its
    /// consumers; or faults it with the error `body` throws (``CancelledError``: cancelled).
    @inlinable
    func completeFollowing(_ body: () throws -> Task<TResult>) {
        let other: Task<TResult>
        do {
            other = try body()
        } catch {
            complete(settle { throw error })
            return
        }
        completeWith(other)
    }

    /// The error of `result` when it is a fault (not a cancellation) with an error of type `E`: what the
    /// `continueOnErrorWith` forms recover from. `nil` lets the outcome pass through.
    @inlinable
    static func recoverable<E>(_ result: Result<TResult, any Error>, as type: E.Type) -> E? {
        guard case .failure(let error) = result, !isCancellationError(error) else { return nil }
        return error as? E
    }

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

    /// The slow path of every continuation: a new task derived from this one through the core's
    /// dependency primitive (`derive(after:)`: one consumer of this task, a callback on the executor's
    /// context, released once it has run), so it has the core's guarantees: continuations of one task are
    /// independent, stack-safe on `.immediate` and `.default` at any depth, cancellation requests travel
    /// upstream as one consumer's ask (G8), and the step is named `name` at the caller's `file`:`line` in
    /// failure traces and the pending-futures report. The new task carries `body` (and this task when
    /// `passing`, for the forms whose closure receives it) until `body` runs.
    @inlinable
    func continued<S>(
        _ executor: Executor,
        _ name: StaticString,
        _ file: StaticString,
        _ line: UInt,
        passing: Bool,
        _ body: @escaping @Sendable (Result<TResult, any Error>, ContinuationTask<S, TResult>) -> Void
    ) -> Task<S> {
        let next = ContinuationTask<S, TResult>(source: passing ? self : nil, step: body)
        next.derive(after: self, executor.context, step: name, file: file, line: line) { result in
            next.fire(result)
        }
        return next
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
    // once in `fire(_:)` (`source` by the step it runs), the body of the one callback `continued` registers
    // on the source: a callback runs at most once (G2), on one thread. Nothing else reads or writes them; `deinit`, which destroys what is
    // left, runs after the last reference, the callback's included, is gone. For the same reason no two
    // accesses overlap, so the runtime's exclusivity check is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    var step: (@Sendable (Result<Source, any Error>, ContinuationTask<TResult, Source>) -> Void)?

    /// The task continued from, for the forms whose closure receives it (their step takes it with
    /// ``takeSource()``); `nil` for the others.
    @usableFromInline
    @exclusivity(unchecked)
    var source: Task<Source>?

    @inlinable
    init(
        source: Task<Source>?,
        step: @escaping @Sendable (Result<Source, any Error>, ContinuationTask<TResult, Source>) -> Void
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
        self.init(source: nil) { _, _ in }
        step = nil
        resolver { [self] result in
            if !complete(result) {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(#fileID)", line: #line))
            }
        }
    }

    /// Runs the step with the source's result, releasing it as soon as it has run (and the source, which
    /// a step that receives it takes).
    @inlinable
    func fire(_ result: Result<Source, any Error>) {
        guard let step = step.take() else { return }
        step(result, self)
    }

    /// The task continued from, for the step of a form whose closure receives it: taken, so that it is
    /// released once the step has run.
    @inlinable
    func takeSource() -> Task<Source> {
        source.take()!
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
