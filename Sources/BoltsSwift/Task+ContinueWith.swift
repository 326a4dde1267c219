import Futures

// One declaration per name and kind of closure (Bolts-Swift's own set): a closure that returns a value
// uses `continueWith`, `continueOnSuccessWith` or `continueOnErrorWith`; one that returns a task uses the
// `…Task` name. Each is generic only in what the closure returns, so chains type-check at once.
//
// Each has the two paths of the core's combinators, as `map` and `flatMap` have: on `.immediate` over a
// completed task, the work runs at once and the new task is built from its answer (`continuedNow`);
// otherwise the new task, which stores the caller's closure itself, is derived from this one through the
// core's `derive(after:)` at the caller's `file` and `line`. The success and error forms write their work
// once, as a form (`OnSuccess`, `OnFault`: what the new task completes with, from this task's outcome and
// the closure), which both paths run (`continued`); `continueWith` and `continueWithTask`, whose closure
// receives the task, write both paths themselves. Whatever the closure captures, a continuation of a
// pending task costs one object, its new task, as a core `map` does: no wrapper closure, no box. (The one
// exception, off the success path: the error forms that take `any Error` hand their closure to the
// generic form, whose input is passed indirectly, through a reabstraction thunk, itself a box.) Each is
// `@inline(__always)`, as `continued` is, so the fast path is compiled in the caller.

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
        let next = ContinueWithContinuation<S, TResult>(source: self, continuation: continuation)
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
        if let now = continuedNow(executor, { _ in Next<S>.following { try continuation(self) }.newTask }) {
            return now
        }
        let next = ContinueWithTaskContinuation<S, TResult>(source: self, continuation: continuation)
        next.derive(after: self, executor.context, step: "continueWithTask", file: file, line: line) { _ in
            next.fire()
        }
        return next
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
        continued(OnSuccess<TResult, S>.self, continuation, executor, "continueOnSuccessWith", file, line)
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
        continued(OnSuccess<TResult, S>.self, continuation, executor, "continueOnSuccessWithTask", file, line)
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
        continued(OnFault<TResult, E>.self, continuation, executor, "continueOnErrorWith", file, line)
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
        continued(OnFault<TResult, any Error>.self, continuation, executor, "continueOnErrorWith", file, line)
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
        continued(OnFault<TResult, E>.self, continuation, executor, "continueOnErrorWithTask", file, line)
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
        continued(OnFault<TResult, any Error>.self, continuation, executor, "continueOnErrorWithTask", file, line)
    }

    // MARK: - The continuations' two paths

    /// The fast path of every continuation, the core combinators' (`ifCompleted`): on `.immediate` over a
    /// completed task, `make` runs right here, through the trampoline, and builds the new task from this
    /// task's outcome, with no callback registered. `nil`, with nothing run, when the task is pending, the
    /// executor is another one, failure tracing is on, or the trampoline has no frame left: the caller
    /// then derives the new task.
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

    /// The success and error forms whose closure returns a value: `Form` answers, from this task's outcome
    /// and the caller's `closure`, what the new task completes with.
    ///
    /// The fast path (``continuedNow(_:_:)``) runs `Form`'s work at once. Otherwise the new task, a
    /// ``ValueContinuation`` that stores `closure` itself, is derived from this one through the core's
    /// dependency primitive (`derive(after:)`: one consumer of this task, a callback on the executor's
    /// context that captures the new task alone, released once it has run), so it has the core's
    /// guarantees: continuations of one task are independent, stack-safe on `.immediate` and `.default` at
    /// any depth, cancellation requests travel upstream as one consumer's ask (G8), and the step is named
    /// `name` at the caller's `file`:`line` in failure traces and the pending-futures report.
    @inlinable
    @inline(__always)
    func continued<Form: ValueForm>(
        _ form: Form.Type,
        _ closure: @escaping @Sendable (Form.Input) throws -> Form.Value,
        _ executor: Executor,
        _ name: StaticString,
        _ file: StaticString,
        _ line: UInt
    ) -> Task<Form.Value> where Form.Source == TResult {
        if let now = continuedNow(executor, { Form.next($0, with: closure).newTask }) { return now }
        let next = ValueContinuation<Form>(closure: closure)
        next.derive(after: self, executor.context, step: name, file: file, line: line) { result in
            next.fire(result)
        }
        return next
    }

    /// The success and error forms whose closure returns a task to follow:
    /// ``continued(_:_:_:_:_:_:)-(_,(Form.Input)->Form.Value,_,_,_,_)`` with a ``FollowingContinuation``.
    @inlinable
    @inline(__always)
    func continued<Form: FollowingForm>(
        _ form: Form.Type,
        _ closure: @escaping @Sendable (Form.Input) throws -> Task<Form.Value>,
        _ executor: Executor,
        _ name: StaticString,
        _ file: StaticString,
        _ line: UInt
    ) -> Task<Form.Value> where Form.Source == TResult {
        if let now = continuedNow(executor, { Form.next($0, with: closure).newTask }) { return now }
        let next = FollowingContinuation<Form>(closure: closure)
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
    @inline(__always)
    static func value(_ body: () throws -> TResult) -> Next {
        .settled(settle(body))
    }

    /// The task `body` returns, to follow (chaining without nesting), or the error it throws
    /// (``CancelledError``: cancelled).
    @inlinable
    @inline(__always)
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
    @inline(__always)
    static func onSuccess<Value>(_ result: Result<Value, any Error>, _ body: (Value) -> Next) -> Next {
        switch result {
        case .success(let value): body(value)
        case .failure(let error): .settled(.failure(error))
        }
    }

    /// The error forms: `body` with the error of a fault (not a cancellation) with an error of type `E`;
    /// any other outcome passes straight through.
    @inlinable
    @inline(__always)
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

// MARK: - The forms

/// What a success or error form does (one caseless enum per form, named after it): ``Next`` for the new
/// task, from the outcome of the task continued from and the caller's closure. The two paths of a
/// continuation (``Task/continuedNow(_:_:)`` and the continuation task) both run it, so each form is
/// written once.
@usableFromInline
protocol ContinuationForm: SendableMetatype {
    /// The result of the task continued from.
    associatedtype Source: Sendable
    /// The result of the new task.
    associatedtype Value: Sendable
    /// What the caller's closure receives.
    associatedtype Input
}

/// A form whose caller's closure returns the new task's value (``ValueContinuation``).
@usableFromInline
protocol ValueForm: ContinuationForm {
    /// What the new task completes with, from `result`, running `closure` if the form does on it.
    static func next(_ result: Result<Source, any Error>, with closure: (Input) throws -> Value) -> Next<Value>
}

/// A form whose caller's closure returns a task to follow (``FollowingContinuation``).
@usableFromInline
protocol FollowingForm: ContinuationForm {
    /// What the new task completes with or follows, from `result`, running `closure` if the form does on it.
    static func next(_ result: Result<Source, any Error>, with closure: (Input) throws -> Task<Value>) -> Next<Value>
}

/// `continueOnSuccessWith` and `continueOnSuccessWithTask`: the closure with the value of a success; a
/// fault or a cancellation passes straight through.
@usableFromInline
enum OnSuccess<Source: Sendable, Value: Sendable>: ValueForm, FollowingForm {
    @usableFromInline typealias Input = Source

    @inlinable
    @inline(__always)
    static func next(_ result: Result<Source, any Error>, with closure: (Source) throws -> Value) -> Next<Value> {
        .onSuccess(result) { value in .value { try closure(value) } }
    }

    @inlinable
    @inline(__always)
    static func next(_ result: Result<Source, any Error>, with closure: (Source) throws -> Task<Value>) -> Next<Value> {
        .onSuccess(result) { value in .following { try closure(value) } }
    }
}

/// `continueOnErrorWith` and `continueOnErrorWithTask`: the closure with the error of a fault (not a
/// cancellation) with an error of type `Failure`; any other outcome passes straight through.
@usableFromInline
enum OnFault<Value: Sendable, Failure>: ValueForm, FollowingForm {
    @usableFromInline typealias Source = Value
    @usableFromInline typealias Input = Failure

    @inlinable
    @inline(__always)
    static func next(_ result: Result<Value, any Error>, with closure: (Failure) throws -> Value) -> Next<Value> {
        .onFault(result, as: Failure.self) { error in .value { try closure(error) } }
    }

    @inlinable
    @inline(__always)
    static func next(_ result: Result<Value, any Error>, with closure: (Failure) throws -> Task<Value>) -> Next<Value> {
        .onFault(result, as: Failure.self) { error in .following { try closure(error) } }
    }
}

// MARK: - The continuation tasks

// A continuation of a pending task returns one of these: a task that stores the caller's closure itself, in
// a field of the closure's own function type (a step wrapping the closure would be a closure of its own,
// and a closure that captures something would cost a context box for it; a field of another shape would
// take the closure through a reabstraction thunk, a box too). The callback that the continuation registers
// on the source through the core's `derive(after:)` captures the continuation task alone, which Swift
// passes as the closure's context: no box either. Hence four classes, one per shape of closure: what it
// receives (the value or error, whose form says which, or the task itself) and what it returns (a value,
// or a task to follow).
//
// `@unchecked Sendable`, for all four: the closure (and the source, for the forms that receive the task) is
// set in `init`, before the task is shared, and taken once in `fire`, the body of the one callback the
// continuation registers on the source: a callback runs at most once (G2), on one thread. Nothing else
// reads or writes them; `deinit`, which destroys what is left, runs after the last reference, the
// callback's included, is gone. For the same reason no two accesses overlap, so the runtime's exclusivity
// check is skipped. `fire` does not use `Optional.take()`: the standard library's generic `take` moves a
// closure that returns a task through a reabstraction thunk, which is a box (measured: two allocations per
// `continueOnSuccessWithTask`). The value forms move their closure out with `swap`, specialised for the
// field's type, and call it through a non-escaping closure: handing the escaping closure itself to
// `Form.next` made the compiler copy it around the call (a retain and a release per continuation).

/// The new task of `continueOnSuccessWith` or `continueOnErrorWith` on a pending task (or another
/// executor): it carries the caller's closure, and `Form` does the continuation's work with it.
@usableFromInline
final class ValueContinuation<Form: ValueForm>: Task<Form.Value>, @unchecked Sendable {
    @usableFromInline
    @exclusivity(unchecked)
    var closure: (@Sendable (Form.Input) throws -> Form.Value)?

    @inlinable
    init(closure: @escaping @Sendable (Form.Input) throws -> Form.Value) {
        self.closure = closure
        super.init(pending: ())
    }

    /// ``Task/init(resolver:)``, which every subclass must provide: the task has no closure, and `resolver`
    /// completes it.
    @usableFromInline
    required init(resolver: (_ complete: @escaping @Sendable (Result<Form.Value, any Error>) -> Void) -> Void) {
        closure = nil
        super.init(pending: ())
        resolve(resolver)
    }

    /// Does the form's work with the source's result and the closure, and completes this task with its
    /// answer, releasing the closure (and what it captured) as soon as it has run.
    @inlinable
    func fire(_ result: Result<Form.Source, any Error>) {
        var taken: (@Sendable (Form.Input) throws -> Form.Value)? = nil
        swap(&taken, &closure)
        guard let taken else { return }
        Form.next(result, with: { try taken($0) }).complete(self)
    }
}

/// The new task of `continueOnSuccessWithTask` or `continueOnErrorWithTask` on a pending task (or
/// another executor): ``ValueContinuation`` for a closure that returns a task to follow.
@usableFromInline
final class FollowingContinuation<Form: FollowingForm>: Task<Form.Value>, @unchecked Sendable {
    @usableFromInline
    @exclusivity(unchecked)
    var closure: (@Sendable (Form.Input) throws -> Task<Form.Value>)?

    @inlinable
    init(closure: @escaping @Sendable (Form.Input) throws -> Task<Form.Value>) {
        self.closure = closure
        super.init(pending: ())
    }

    /// ``Task/init(resolver:)``, which every subclass must provide: the task has no closure, and `resolver`
    /// completes it.
    @usableFromInline
    required init(resolver: (_ complete: @escaping @Sendable (Result<Form.Value, any Error>) -> Void) -> Void) {
        closure = nil
        super.init(pending: ())
        resolve(resolver)
    }

    /// Does the form's work with the source's result and the closure, and completes this task with its
    /// answer or with the task it follows, releasing the closure as soon as it has run.
    @inlinable
    func fire(_ result: Result<Form.Source, any Error>) {
        var taken: (@Sendable (Form.Input) throws -> Task<Form.Value>)? = nil
        swap(&taken, &closure)
        guard let taken else { return }
        Form.next(result, with: { try taken($0) }).complete(self)
    }
}

/// The new task of ``Task/continueWith(_:continuation:file:line:)`` on a pending task (or another
/// executor): it carries the caller's closure and the task that closure receives.
@usableFromInline
final class ContinueWithContinuation<TResult: Sendable, Source: Sendable>: Task<TResult>, @unchecked Sendable {
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

    /// ``Task/init(resolver:)``, which every subclass must provide: the task has no closure and no source,
    /// and `resolver` completes it.
    @usableFromInline
    required init(resolver: (_ complete: @escaping @Sendable (Result<TResult, any Error>) -> Void) -> Void) {
        continuation = nil
        source = nil
        super.init(pending: ())
        resolve(resolver)
    }

    /// Runs the closure with the source, once it has completed, and completes this task with its
    /// outcome, releasing both (the closure and what it captured, and the source) as soon as it has run.
    @inlinable
    func fire() {
        guard let continuation, let source else { return }
        self.continuation = nil
        self.source = nil
        complete(settle { try continuation(source) })
    }
}

/// The new task of ``Task/continueWithTask(_:continuation:file:line:)`` on a pending task (or another
/// executor): ``ContinueWithContinuation`` for a closure that returns a task to follow.
@usableFromInline
final class ContinueWithTaskContinuation<TResult: Sendable, Source: Sendable>: Task<TResult>, @unchecked Sendable {
    @usableFromInline
    @exclusivity(unchecked)
    var continuation: (@Sendable (Task<Source>) throws -> Task<TResult>)?

    /// The task continued from, which `continuation` receives.
    @usableFromInline
    @exclusivity(unchecked)
    var source: Task<Source>?

    @inlinable
    init(source: Task<Source>, continuation: @escaping @Sendable (Task<Source>) throws -> Task<TResult>) {
        self.continuation = continuation
        self.source = source
        super.init(pending: ())
    }

    /// ``Task/init(resolver:)``, which every subclass must provide: the task has no closure and no source,
    /// and `resolver` completes it.
    @usableFromInline
    required init(resolver: (_ complete: @escaping @Sendable (Result<TResult, any Error>) -> Void) -> Void) {
        continuation = nil
        source = nil
        super.init(pending: ())
        resolve(resolver)
    }

    /// Runs the closure with the source, once it has completed, and completes this task with the outcome
    /// of the task it returns (or with what it throws), releasing the closure and the source as soon as it
    /// has run.
    @inlinable
    func fire() {
        guard let continuation, let source else { return }
        self.continuation = nil
        self.source = nil
        Next.following { try continuation(source) }.complete(self)
    }
}
