import Dispatch
import Synchronization

/// Where a closure runs: a queue, a thread, or right here.
///
/// An execution context only decides *where* a task runs, never *whether* it runs (invalidation and
/// cancel tokens decide that). Contexts are values: copy them freely and share them across threads.
///
/// Build one from any closure that runs a task, exactly as BrightFutures' function-typed contexts:
///
/// ```swift
/// let logging = ExecutionContext { task in
///     print("about to run")
///     task()
/// }
/// future.onSuccess(logging) { print($0) }
/// ```
///
/// A context is also callable, so code written against BrightFutures' `(task) -> Void` contexts keeps
/// working: `immediateOnMainExecutionContext { updateUI() }`.
public struct ExecutionContext: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        /// Run the task on the calling thread, now.
        case immediate
        /// Run the task on a dispatch queue, asynchronously.
        case queue(DispatchQueue)
        /// Hand the task to a user-supplied function.
        case custom(@Sendable (@escaping @Sendable () -> Void) -> Void)
        /// Run on `base`, but only while `isOpen()` says so, checked on `base` just before the task
        /// (an ``InvalidationToken``'s valid context). Never nested: ``gated(by:tracker:)`` merges the
        /// checks. `trackers` are the ``InvalidationToken``s behind the gate: registrations made through
        /// the context are handed to them, so that `invalidate()` removes and releases them at once.
        indirect case gated(base: Kind, isOpen: @Sendable () -> Bool, trackers: [InvalidationToken])
    }

    @usableFromInline
    let kind: Kind

    @inlinable
    init(kind: Kind) {
        self.kind = kind
    }

    /// Creates a context that hands every task to `execute`.
    ///
    /// `execute` must run each task it receives exactly once, on whatever thread it chooses. Misuse has
    /// defined outcomes:
    /// - A context that never runs a task (drops it, or parks it on a queue that is never serviced): that
    ///   callback does not run; every other callback of the future runs (none waits for another context).
    ///   Nothing crashes; the future stays completed, `get()` and `forced()` still return. A future
    ///   returned by a transform (`map`, …) on such a context stays pending.
    /// - A context that runs a task twice: the callback runs once, at the first run; the second run does
    ///   nothing and is reported as ``FuturesDiagnostic/contextRanTaskTwice``.
    /// To skip callbacks on purpose, use ``InvalidationTokenType/validContext``, which skips only its own.
    /// See `OperationQueue.context` for how the built-in queue contexts avoid dropping work.
    ///
    /// Given the immediate context as a function (as the `BrightFutures` module's `immediateExecutionContext`,
    /// whose contexts are functions, hands it out), it makes ``immediateExecutionContext`` itself, with its
    /// fast paths; any other function makes a custom context.
    @inlinable
    public init(_ execute: @escaping @Sendable (_ task: @escaping @Sendable () -> Void) -> Void) {
        self.kind = Self.isSameFunction(execute, Self.immediateFunction) ? .immediate : .custom(execute)
    }

    /// ``immediateExecutionContext`` as a function: runs the task it is given at once. ``init(_:)`` given
    /// this very function (or a copy of it) makes the immediate context, not a custom one, so a face whose
    /// contexts are functions keeps the core's immediate paths (no scheduled entry, the completed-future
    /// path of every combinator).
    @usableFromInline
    package static let immediateFunction: ExecutionContextFunction = { task in task() }

    /// Whether `a` and `b` are the same function value: the same code with the same captured context,
    /// compared as the two words a Swift function value is made of (its code and its context). Equal words
    /// run the same code on the same captures; a copy that Swift re-abstracted (passed through a generic
    /// parameter and back) has other words, and only loses the recognition, never changes what runs.
    ///
    /// Each function is read inside a ``FunctionValue``: a function handed to a generic parameter directly
    /// would be re-abstracted first (a new closure, with other words).
    @inlinable
    @inline(__always)
    static func isSameFunction(_ a: @escaping ExecutionContextFunction, _ b: @escaping ExecutionContextFunction) -> Bool
    {
        withUnsafeBytes(of: FunctionValue(function: a)) { a in
            withUnsafeBytes(of: FunctionValue(function: b)) { b in
                a.load(as: (UInt, UInt).self) == b.load(as: (UInt, UInt).self)
            }
        }
    }

    /// A context function stored as itself: the two words of a Swift function value (see
    /// ``isSameFunction(_:_:)``).
    @usableFromInline
    struct FunctionValue {
        @usableFromInline let function: ExecutionContextFunction

        @inlinable
        init(function: @escaping ExecutionContextFunction) {
            self.function = function
        }
    }

    /// Creates a context that runs tasks asynchronously on `queue`.
    public init(queue: DispatchQueue) {
        self.kind = .queue(queue)
    }

    /// ``immediateExecutionContext``, built where it is used: no read of the global, and a copy of a
    /// context whose kind is known (for a face's executor that maps to it, such as BoltsSwift's
    /// `.immediate`).
    @inlinable
    package static var immediate: ExecutionContext {
        ExecutionContext(kind: .immediate)
    }

    /// Whether tasks run synchronously on the calling thread (the library then skips every hop).
    @inlinable
    package var isImmediate: Bool {
        if case .immediate = kind { return true }
        return false
    }

    /// Runs `task` in this context.
    ///
    /// With the `ServiceContext` package trait, `task` runs with the trace context (`ServiceContext`) that
    /// is current here, on whatever thread the context runs it.
    @inlinable
    public func execute(_ task: @escaping @Sendable () -> Void) {
        #if ServiceContext
            if !isImmediate, ContextTravel.isActive { return executeUnbound(ContextTravel.bound(task)) }
        #endif
        executeUnbound(task)
    }

    /// Runs `task` in this context without binding it to the current trace context (the library's own
    /// hops of work that carries its context already, such as a callback bound at registration).
    @inlinable
    func executeUnbound(_ task: @escaping @Sendable () -> Void) {
        switch kind {
        case .immediate:
            task()
        case .queue(let queue):
            queue.async(execute: task)
        case .custom(let execute):
            execute(task)
        case .gated:
            executeGated(task)
        }
    }

    /// Runs `task` in this context at most once, through the trampoline: the library's way to hand its own
    /// work (a stream's drainer, a replay) to a context. A context that runs the task twice gets the second
    /// run ignored and reported as ``FuturesDiagnostic/contextRanTaskTwice``.
    @inlinable
    func executeOnce(_ task: @escaping @Sendable () -> Void) {
        let once = RunOnce(task)
        execute { once.run() }
    }

    /// Runs `task` on a gated context's underlying context if the gate is still open then (out of line).
    @usableFromInline
    func executeGated(_ task: @escaping @Sendable () -> Void) {
        guard case .gated(let base, let isOpen, _) = kind else { return execute(task) }
        ExecutionContext(kind: base).executeUnbound {
            if isOpen() { task() }
        }
    }

    /// This context with every task skipped, at run time on this context, once `isOpen()` is false.
    ///
    /// `tracker`, if any, is the invalidation token behind `isOpen`: registrations made through the
    /// context are handed to it (see ``invalidationTrackers``).
    func gated(by isOpen: @escaping @Sendable () -> Bool, tracker: InvalidationToken? = nil) -> ExecutionContext {
        let added = tracker.map { [$0] } ?? []
        if case .gated(let base, let outer, let trackers) = kind {
            return ExecutionContext(
                kind: .gated(base: base, isOpen: { outer() && isOpen() }, trackers: trackers + added))
        }
        return ExecutionContext(kind: .gated(base: kind, isOpen: isOpen, trackers: added))
    }

    /// The invalidation tokens behind a gated context (empty otherwise): a registration made through
    /// this context is handed to each of them, so that invalidating one removes and releases it.
    var invalidationTrackers: [InvalidationToken] {
        if case .gated(_, _, let trackers) = kind { return trackers }
        return []
    }

    /// Splits a gated context into the context that runs callbacks and the check that guards each
    /// callback body. The core schedules on the ungated context and checks the gate inside the callback,
    /// so a closed gate skips only that callback and never holds back the callbacks registered after it.
    @usableFromInline
    var ungated: (context: ExecutionContext, isOpen: (@Sendable () -> Bool)?) {
        if case .gated(let base, let isOpen, _) = kind {
            return (ExecutionContext(kind: base), isOpen)
        }
        return (self, nil)
    }

    /// Runs `task` in this context; lets a context be called like BrightFutures' function contexts.
    @inlinable
    public func callAsFunction(_ task: @escaping @Sendable () -> Void) {
        execute(task)
    }
}

/// Runs every task at once on the calling thread.
///
/// Completion cascades through immediate callbacks are trampolined, so a chain of any length runs in
/// bounded stack space.
///
/// A computed global, so that each read is the context in place: no lazy initialisation, and no copy of
/// a stored context to make and destroy around the call that receives it.
@inlinable
public var immediateExecutionContext: ExecutionContext { ExecutionContext(kind: .immediate) }

/// The function form of an execution context: a function that runs the task it is given, as
/// BrightFutures' contexts were. ``ExecutionContext/init(_:)`` makes a context of one; the `BrightFutures`
/// module names this type `ExecutionContext`.
@usableFromInline
package typealias ExecutionContextFunction = @Sendable (@escaping @Sendable () -> Void) -> Void

/// A task that runs once, whatever its context does with it (see ``ExecutionContext/executeOnce(_:)``).
@usableFromInline
final class RunOnce: Sendable {
    @usableFromInline let task: @Sendable () -> Void
    @usableFromInline let hasRun = Atomic<Bool>(false)

    @inlinable
    init(_ task: @escaping @Sendable () -> Void) {
        self.task = task
    }

    @inlinable
    func run() {
        if hasRun.exchange(true, ordering: .acquiringAndReleasing) {
            FuturesDiagnostics.report(.contextRanTaskTwice)
            return
        }
        Trampoline.run(task) { $0() }
    }
}
