/// A cold, lazy asynchronous computation: nothing runs until it is executed, and each execution runs it
/// again from the start.
///
/// `Deferred` is the "lazy `Async<T>`" that turns nested callbacks into a chain. Building a chain with
/// ``map(_:file:line:)`` and ``flatMap(_:file:line:)`` only *describes* the work; ``execute(_:callback:)`` or ``run()`` starts
/// it. Contrast with ``Future``, which is *hot*: a future stands for work that is already running and
/// whose single result is shared by every observer.
///
/// ```swift
/// // nothing requested yet
/// let page = URLSession.shared.dataDeferred(from: url)
/// page.flatMap { _ in
///     print("first")
///     return URLSession.shared.dataDeferred(from: url)
/// }.flatMap { _ in
///     print("second")
///     return URLSession.shared.dataDeferred(from: url)
/// }.execute { _ in
///     // first, second, finally
///     print("finally")
/// }
/// ```
///
/// ## Threading
/// The transforms given to ``map(_:file:line:)``, ``flatMap(_:file:line:)`` and ``mapError(_:file:line:)`` run on the thread that
/// delivered the previous step's result (immediately, no hop). ``execute(_:callback:)`` takes a context
/// for the final callback.
///
/// ## Failure, cancellation, stack depth
/// A failing step skips the rest of the chain and delivers its error. Each execution is a ``Future``
/// under the hood: a cancellation request on the future returned by ``run()`` reaches the step that is
/// running at that moment (for example the `URLSessionTask` of `URLSession.dataDeferred(for:)`).
/// Starting a chain of any length uses bounded stack space, and so does recursion through `run()` and
/// `flatMap`: every closure of yours that an execution calls synchronously (trunks, `makeFuture`,
/// transforms) runs on the calling thread's trampoline.
///
/// A `Deferred` is an immutable value: share and execute it from any thread.
public struct Deferred<T: Sendable, E: Error>: Sendable {
    /// The last step of the chain; it links to the steps before it.
    @usableFromInline let node: DeferredNode<T, E>

    @inlinable
    init(node: DeferredNode<T, E>) {
        self.node = node
    }

    /// Creates a deferred computation from a trunk: a function that starts the work and calls `complete`
    /// with its result.
    ///
    /// `trunk` does not run now: it runs once per execution, on the thread that calls
    /// ``execute(_:callback:)`` or ``run()``. `complete` may be called from any thread; the first call
    /// per execution wins, later ones are ignored and reported as
    /// ``FuturesDiagnostic/futureCompletedTwice(file:line:)``. If `trunk` never calls `complete`, that
    /// execution never completes.
    ///
    /// ```swift
    /// let answer = Deferred<Int, Never> { complete in
    ///     DispatchQueue.global().async { complete(.success(42)) }
    /// }
    /// ```
    @inlinable
    public init(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ trunk: @escaping @Sendable (_ complete: @escaping @Sendable (Result<T, E>) -> Void) -> Void
    ) {
        self.node = DeferredNode(parent: nil) { _ in
            let future = Future<T, E>.produced("Deferred", file: file, line: line)
            let begin = {
                trunk { result in
                    if !future.complete(result) {
                        FuturesDiagnostics.report(.futureCompletedTwice(file: "\(file)", line: line))
                    }
                }
            }
            // `trunk` is user code: it runs on the trampoline, so that executions started from inside
            // other executions (recursion through `run()`) nest a bounded number of frames.
            Trampoline.run(begin) { $0() }
            return future
        }
    }

    /// Creates a deferred computation that calls `makeFuture` on each execution and follows its future.
    ///
    /// This is how hot, cancellable work becomes lazy and repeatable: a cancellation request on the
    /// future returned by ``run()`` is a request on `makeFuture`'s future itself.
    /// `makeFuture` runs on the thread that starts the execution.
    @inlinable
    public init(starting makeFuture: @escaping @Sendable () -> Future<T, E>) {
        self.node = DeferredNode(parent: nil) { _ in startOnTrampoline(makeFuture) }
    }

    /// A deferred computation that succeeds with `value` each time it is executed (the blog's `unit`).
    @inlinable
    public static func unit(_ value: T) -> Deferred<T, E> {
        Deferred(node: DeferredNode(parent: nil) { _ in Future(value: value) })
    }

    /// A deferred computation that fails with `error` each time it is executed.
    @inlinable
    public static func failure(_ error: E) -> Deferred<T, E> {
        Deferred(node: DeferredNode(parent: nil) { _ in Future(error: error) })
    }

    // MARK: - Running

    /// Starts one execution and returns its future: hot, shared by all its observers, completed once.
    ///
    /// Each call starts a new, independent execution. Requesting cancellation of the returned future
    /// (``Future/requestCancellation()``) reaches the step of the chain that is running; how and whether
    /// that step stops is up to the step (a trunk cannot observe it; ``init(starting:)`` can).
    @inlinable
    public func run() -> Future<T, E> {
        node.run()
    }

    /// Starts one execution and calls `callback` with its result (the blog's `execute`).
    ///
    /// - Parameters:
    ///   - context: Where `callback` runs; by default on the thread that delivers the result.
    ///   - callback: Receives the result of this execution, exactly once.
    @inlinable
    public func execute(
        _ context: ExecutionContext = immediateExecutionContext,
        callback: @escaping @Sendable (Result<T, E>) -> Void
    ) {
        run().onComplete(context, callback: callback)
    }

    // MARK: - Transforming

    /// A deferred computation that, when executed, executes this one and transforms its value with `f`.
    ///
    /// `f` runs on the thread that delivered the value; a failure passes through (`f` does not run).
    @inlinable
    public func map<U>(_ f: @escaping @Sendable (T) -> U, file: StaticString = #fileID, line: UInt = #line) -> Deferred<
        U, E
    > {
        chain { source, target in
            target.depend(on: source, link: .step("map", file: file, line: line)) { target.complete($0.map(f)) }
        }
    }

    /// A deferred computation that, when executed, executes this one, then the computation `f` returns
    /// for its value (the blog's `flatMap`).
    ///
    /// `f` runs on the thread that delivered the value; a failure of either step is the result (and
    /// `f` does not run after a failure). A cancellation request reaches whichever step is running.
    @inlinable
    public func flatMap<U>(
        _ f: @escaping @Sendable (T) -> Deferred<U, E>, file: StaticString = #fileID, line: UInt = #line
    ) -> Deferred<U, E> {
        chain { source, target in
            target.depend(on: source, link: .step("flatMap", file: file, line: line)) { result in
                switch result {
                case .success(let value):
                    target.completeWith(f(value).run())
                case .failure(let error):
                    target.complete(.failure(error))
                }
            }
        }
    }

    /// A deferred computation that, when executed, transforms this one's error with `f`.
    ///
    /// `f` runs on the thread that delivered the error; a success passes through unchanged.
    @inlinable
    public func mapError<E1: Error>(
        _ f: @escaping @Sendable (E) -> E1, file: StaticString = #fileID, line: UInt = #line
    ) -> Deferred<T, E1> {
        chain { source, target in
            target.depend(on: source, link: .step("mapError", file: file, line: line)) {
                target.complete($0.mapError(f))
            }
        }
    }

    /// Builds a step: on each execution, starts this computation as `source` and lets `wire` make `target`
    /// depend on it (``Future/depend(on:_:link:asking:_:)``), so a request on `target` reaches `source` as
    /// one of its consumers.
    ///
    /// The start is trampolined, so executing a chain of any length nests a bounded number of frames.
    @inlinable
    func chain<U, E1>(
        _ wire: @escaping @Sendable (_ source: Future<T, E>, _ target: Future<U, E1>) -> Void
    ) -> Deferred<U, E1> {
        // The step receives its parent as an argument instead of capturing it, so the chain is a plain
        // linked list of nodes (released iteratively), not a nest of closures (released recursively).
        Deferred<U, E1>(
            node: DeferredNode(parent: node) { parent in
                let source = unsafeDowncast(parent!, to: DeferredNode<T, E>.self)
                let target = Future<U, E1>()
                func begin() { wire(source.run(), target) }
                if Trampoline.runInline(begin) == nil {
                    // Queued: `target` is returned before the futures it depends on exist, so it accepts
                    // requests from now on (consumers that register on it meanwhile link theirs, and
                    // `depend` passes one made meanwhile on at once). The job runs only when this thread's
                    // outermost frame unwinds, after `target` is returned.
                    target.acceptCancellationRequests()
                    Trampoline.run(begin) { $0() }
                }
                return target
            })
    }
}

/// Calls `makeFuture` (user code) on the calling thread's trampoline and returns its future.
///
/// When the trampoline is already at its depth limit, the call is queued (it runs when the outermost
/// trampoline frame of this thread unwinds) and a stand-in future is returned at once: it completes with
/// `makeFuture`'s future and passes cancellation requests on to it.
@inlinable
func startOnTrampoline<T, E>(_ makeFuture: @escaping @Sendable () -> Future<T, E>) -> Future<T, E> {
    if let started = Trampoline.runInline(makeFuture) { return started }
    // No frame left: a stand-in is returned now and completed with `makeFuture`'s future when the queued
    // start runs. Requests made before the real future exists must reach it: consumers that link to the
    // stand-in now forward theirs, and `completeWith` passes one made meanwhile on at once.
    let standIn = Future<T, E>()
    standIn.acceptCancellationRequests()
    Trampoline.run((standIn, makeFuture)) { $0.completeWith($1()) }
    return standIn
}

/// A link of a ``Deferred`` chain: it keeps the steps before it alive and unlinks them iteratively
/// when released, so dropping a chain of any length uses bounded stack space.
@usableFromInline
class DeferredLink: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `parent` is set in `init` and mutated only in `deinit`, where
    // no other thread can reach this object, and (in the loop) on links this deinit uniquely owns.
    @usableFromInline var parent: DeferredLink?

    @usableFromInline
    init(parent: DeferredLink?) {
        self.parent = parent
    }

    deinit {
        var next = parent
        parent = nil
        while var link = next {
            next = nil
            guard isKnownUniquelyReferenced(&link) else { break }
            next = link.parent
            link.parent = nil
        }
    }
}

/// A step of a ``Deferred`` chain: how to start it, given the step before it.
@usableFromInline
final class DeferredNode<T: Sendable, E: Error>: DeferredLink, @unchecked Sendable {
    // `@unchecked Sendable`: see ``DeferredLink``; `start` is immutable and `@Sendable`.
    @usableFromInline let start: @Sendable (_ parent: DeferredLink?) -> Future<T, E>

    @inlinable
    init(parent: DeferredLink?, start: @escaping @Sendable (_ parent: DeferredLink?) -> Future<T, E>) {
        self.start = start
        super.init(parent: parent)
    }

    /// Starts one execution of the chain ending here.
    @inlinable
    func run() -> Future<T, E> {
        start(parent)
    }
}
