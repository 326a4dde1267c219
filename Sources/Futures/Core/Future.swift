import Dispatch

/// A read-only, write-once result of an asynchronous computation.
///
/// A future is either pending or completed with a `Result<T, E>`; once completed it never changes.
/// It is thread-safe: register callbacks, read its state and complete it from any thread.
///
/// ```swift
/// User.logIn(username, password).flatMap { user in
///     Posts.fetchPosts(user)
/// }.onSuccess { posts in
///     // do something with the user's posts
/// }.onFailure { error in
///     // either logging in or fetching posts failed
/// }
/// ```
///
/// ## Threading
/// Every method that takes a closure also takes an ``ExecutionContext`` (unlabelled for BrightFutures'
/// callbacks and transforms, `context:` for `andThen`, `recover` and `recoverWith`). Omitted, it is
/// ``defaultContext()``: the main queue when the method is called on the main thread, else a global
/// queue. Callbacks of one future run one at a time, in registration order, even on different
/// contexts; the next starts only after the previous has returned (no thread is blocked for this).
///
/// ## Memory
/// A future does not retain the futures it was derived from, and a completed future holds nothing
/// but its result: callbacks are released as soon as they have run.
///
/// ## Writing
/// The write end of a future is a ``Promise``, or the `complete` closure of ``init(file:line:resolver:)``.
@dynamicMemberLookup
public final class Future<T: Sendable, E: Error>: @unchecked Sendable {
    // `@unchecked Sendable` is sound because all mutable state (`state`, `cancellationRequested`) is
    // read and written only between `lock.lock()` and `lock.unlock()`; the lock's acquire/release
    // ordering publishes it to the next holder.
    //
    // Field order matters for size: the state enum first, then the one-byte lock and flag packed
    // behind it, so a pending future is a 16-byte header plus about 21 bytes.

    // Guarded by `lock`. Exclusivity is proven by the lock, so the runtime check is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    var state: FutureState<T, E>

    @usableFromInline
    let lock: SpinLock

    // Guarded by `lock`: cancellation was requested while the future was pending.
    @usableFromInline
    @exclusivity(unchecked)
    var cancellationRequested: Bool

    // Guarded by `lock`: mirrors `state.result != nil`. A plain field, so that unspecialised code
    // (deinitializers of generic classes) can test completion without instantiating the metadata of
    // the generic state enum.
    @usableFromInline
    @exclusivity(unchecked)
    var completed: Bool

    /// Creates a pending future that never completes by itself.
    ///
    /// Useful as a placeholder; to complete a future later, create a ``Promise`` instead.
    @inlinable
    public init() {
        self.state = FutureState(result: nil)
        self.lock = SpinLock()
        self.cancellationRequested = false
        self.completed = false
    }

    /// Creates a future that is already completed with `result`.
    @inlinable
    public init(result: Result<T, E>) {
        self.state = FutureState(result: result)
        self.lock = SpinLock()
        self.cancellationRequested = false
        self.completed = true
    }

    /// Creates a future that is already completed successfully with `value`.
    @inlinable
    public convenience init(value: T) {
        self.init(result: .success(value))
    }

    /// Creates a future that is already completed with `error`.
    @inlinable
    public convenience init(error: E) {
        self.init(result: .failure(error))
    }

    /// Creates a pending future and lets `resolver` complete it.
    ///
    /// `resolver` runs synchronously, on the calling thread, before this initializer returns. It receives
    /// a `complete` function that may be called from any thread; the first call wins and later calls
    /// are ignored (and reported as a ``FuturesDiagnostic/futureCompletedTwice(file:line:)``).
    ///
    /// ```swift
    /// func asyncCalculation() -> Future<String, Never> {
    ///     Future { complete in
    ///         DispatchQueue.global().async {
    ///             complete(.success("forty-two"))
    ///         }
    ///     }
    /// }
    /// ```
    public convenience init(
        file: StaticString = #fileID,
        line: UInt = #line,
        resolver: (_ complete: @escaping @Sendable (Result<T, E>) -> Void) -> Void
    ) {
        self.init()
        resolver { [self] result in
            if !self.complete(result) {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(file)", line: line))
            }
        }
    }

    /// Creates a future that completes with the same result as `other`.
    public convenience init(other: Future<T, E>) {
        self.init()
        completeWith(other)
    }

    // MARK: - State

    /// The result, or `nil` while pending.
    @inlinable
    public var result: Result<T, E>? {
        lock.lock()
        defer { lock.unlock() }
        return state.result
    }

    /// The value if completed successfully, else `nil`.
    public var value: T? {
        if case .success(let value) = result { return value }
        return nil
    }

    /// The error if completed with a failure, else `nil`.
    public var error: E? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// `true` once the future has a result.
    @inlinable
    public var isCompleted: Bool {
        lock.lock()
        defer { lock.unlock() }
        return completed
    }

    /// `true` if completed successfully.
    public var isSuccess: Bool { value != nil }

    /// `true` if completed with a failure.
    public var isFailure: Bool { error != nil }

    // MARK: - Core operations (internal; every face of the library is built on these)

    /// Completes the future; returns `false` (and changes nothing) if it was already completed.
    ///
    /// Runs the wake-ups and the immediate callbacks on the calling thread (trampolined), and hands
    /// the others to their contexts in turn.
    @inlinable
    @discardableResult
    func complete(_ result: Result<T, E>) -> Bool {
        lock.lock()
        let action = state.complete(result)
        completed = true
        lock.unlock()
        switch action {
        case .alreadyCompleted:
            return false
        case .completed:
            return true
        case .run(let list):
            Trampoline.run(
                { self.runCompletion(list, result) },
                orQueue: { self.runCompletion(list, result) }
            )
            return true
        }
    }

    /// Completes this future with `other`'s result, when it has one.
    @inlinable
    func completeWith(_ other: Future<T, E>) {
        if let result = other.result {
            complete(result)
        } else {
            other.whenComplete(immediateExecutionContext) { [self] result in self.complete(result) }
        }
    }

    /// Registers `body` to run with the result on `context`, in its turn.
    @inlinable
    func whenComplete(_ context: ExecutionContext, _ body: @escaping @Sendable (Result<T, E>) -> Void) {
        if case .gated = context.kind {
            whenCompleteGated(context, body)
            return
        }
        let callback: Callback<T, E> =
            context.isImmediate ? .inline(body) : .scheduled(ScheduledCallback(context: context, body: body))
        lock.lock()
        let action = state.register(callback)
        lock.unlock()
        if case .runNow(let result) = action {
            Trampoline.run(
                { self.runTurns(.one(callback), from: 0, result) },
                orQueue: { self.runTurns(.one(callback), from: 0, result) }
            )
        }
    }

    /// Registers `body` on a gated context (an invalidation token's): scheduled on the underlying context,
    /// with the gate checked inside the callback when it runs, so a closed gate skips only this body and
    /// never the turns of the callbacks behind it. Kept out of line to keep ``whenComplete(_:_:)`` small.
    @usableFromInline
    func whenCompleteGated(_ context: ExecutionContext, _ body: @escaping @Sendable (Result<T, E>) -> Void) {
        let (base, isOpen) = context.ungated
        guard let isOpen else { return whenComplete(base, body) }
        whenComplete(base) { result in
            if isOpen() { body(result) }
        }
    }

    /// If completed and idle, takes the turn, runs `body` with the result right here, and passes the
    /// turn on; otherwise returns `nil` without running `body`. The allocation-free path that
    /// combinators use on the immediate context.
    @inlinable
    func withTurnIfCompleted<R>(_ body: (Result<T, E>) -> R) -> R? {
        lock.lock()
        let taken = state.takeTurnIfCompleted()
        lock.unlock()
        guard let result = taken else { return nil }
        let output = body(result)
        endTurn(result)
        return output
    }

    /// Calls `wakeUp` as soon as the future completes (at once if it has), ahead of any callback's turn.
    @inlinable
    func onCompletionWakeUp(_ wakeUp: @escaping @Sendable (Result<T, E>) -> Void) {
        lock.lock()
        let result = state.registerWakeUp(wakeUp)
        lock.unlock()
        if let result { wakeUp(result) }
    }

    /// Registers a removable wake-up or cancellation handler; runs it at once (on the calling thread)
    /// when it is due already: a wake-up on a completed future, a handler after a cancellation request.
    ///
    /// Returns `true` if the entry was stored (take it back with ``removeEntry(_:)``), `false` if it
    /// ran or was dropped (a handler on a completed future).
    @usableFromInline
    @discardableResult
    func addRemovable(_ entry: RemovableEntry<T, E>) -> Bool {
        lock.lock()
        let action = state.registerRemovable(entry, alreadyRequested: cancellationRequested)
        lock.unlock()
        switch action {
        case .stored:
            return true
        case .completed(let result):
            if case .wakeUp(let wakeUp) = entry.kind { wakeUp(result) }
            return false
        case .cancellationRequested:
            if case .cancellation(let handler) = entry.kind { handler() }
            return false
        }
    }

    /// Takes back an entry stored by ``addRemovable(_:)``; `false` if it already ran, is running, or
    /// was dropped at completion.
    @usableFromInline
    @discardableResult
    func removeEntry(_ entry: RemovableEntry<T, E>) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return state.remove(entry)
    }

    // MARK: - Running callbacks

    /// Runs a freshly completed future's list: wake-ups at once, then the callbacks in turn.
    @inlinable
    func runCompletion(_ list: CallbackList<T, E>, _ result: Result<T, E>) {
        if case .many(let callbacks) = list {
            for callback in callbacks {
                switch callback {
                case .wakeUp(let wakeUp):
                    wakeUp(result)
                case .removable(let entry):
                    if case .wakeUp(let wakeUp) = entry.kind { wakeUp(result) }
                case .inline, .scheduled, .cancellation:
                    continue
                }
            }
        } else if case .one(.wakeUp(let wakeUp)) = list {
            wakeUp(result)
        } else if case .one(.removable(let entry)) = list, case .wakeUp(let wakeUp) = entry.kind {
            wakeUp(result)
        }
        runTurns(list, from: 0, result)
    }

    /// Runs the callbacks of `list` from `start` in turn, then any queued meanwhile, then gives the turn up.
    ///
    /// Returns early when a callback was handed to another context: that context resumes the turns
    /// after the callback has run.
    @inlinable
    func runTurns(_ list: CallbackList<T, E>, from start: Int, _ result: Result<T, E>) {
        var list = list
        var index = start
        while true {
            while index < list.count {
                let callback = list[index]
                index += 1
                switch callback {
                case .inline(let body):
                    body(result)
                case .scheduled(let scheduled):
                    let rest = list
                    let next = index
                    scheduled.context.execute { [self] in
                        scheduled.body(result)
                        Trampoline.run(
                            { self.runTurns(rest, from: next, result) },
                            orQueue: { self.runTurns(rest, from: next, result) }
                        )
                    }
                    return
                case .wakeUp, .cancellation, .removable:
                    continue
                }
            }
            lock.lock()
            let queued = state.endTurn()
            lock.unlock()
            guard let queued else { return }
            list = queued
            index = 0
        }
    }

    /// Ends a turn taken by ``withTurnIfCompleted(_:)``, running whatever was queued meanwhile.
    @inlinable
    func endTurn(_ result: Result<T, E>) {
        lock.lock()
        let queued = state.endTurn()
        lock.unlock()
        if let queued {
            Trampoline.run(
                { self.runTurns(queued, from: 0, result) },
                orQueue: { self.runTurns(queued, from: 0, result) }
            )
        }
    }

    // MARK: - Cancellation requests

    /// Whether cancellation was requested while the future was pending (stays `true` once set).
    public var isCancellationRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancellationRequested
    }

    /// Asks the producer of this future to stop; the first request while pending runs the handlers
    /// registered with ``onCancellationRequested(_:)`` (on the calling thread).
    ///
    /// A request never completes the future by itself: the producer decides how to react (usually by
    /// failing it with a cancellation error). On a completed future it does nothing.
    public func requestCancellation() {
        lock.lock()
        guard !cancellationRequested, state.result == nil else {
            lock.unlock()
            return
        }
        cancellationRequested = true
        let handlers = state.takeCancellationHandlers()
        lock.unlock()
        for handler in handlers { handler() }
    }

    /// Registers `handler` to run when cancellation of this pending future is requested.
    ///
    /// Runs at once (on the calling thread) if cancellation was already requested; never runs if the
    /// future completes first (the handler is then released).
    public func onCancellationRequested(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        let action = state.registerCancellationHandler(handler, alreadyRequested: cancellationRequested)
        lock.unlock()
        if case .runNow = action { handler() }
    }
}
