import Synchronization

/// Runs at most a fixed number of pieces of work at once, starting the rest in submission order as
/// slots free up: for work discovered on the fly (a crawler's next links, an API client's requests).
///
/// ```swift
/// let limiter = ConcurrencyLimiter(maxConcurrent: 8)
///
/// func crawl(_ url: URL) {
///     // Future<(Data, URLResponse), any Error>
///     let page = limiter.submit(timeout: .seconds(10)) {
///         session.dataFuture(from: url)
///     }
///     page.onSuccess { page, _ in
///         // queued behind the running ones
///         for link in links(in: page) { crawl(link) }
///     }
/// }
///
/// // async work, same slots
/// let profile = limiter.submit { try await api.fetchProfile(id) }
/// ```
///
/// ``Swift/Sequence/traverse(maxConcurrent:_:file:line:f:)`` needs its whole list up front; a limiter is an object to
/// share: every submission, from any thread and at any time, competes for the same `maxConcurrent`
/// slots, so no slot idles while work waits.
///
/// ## Order
/// Work that cannot start at once waits in a queue and starts when a running piece of work ends: the
/// highest ``Priority`` first, and within one priority in submission order. Submissions from one thread
/// keep their order; racing submissions are ordered by when they reached the limiter. Lower priorities
/// wait as long as higher ones keep arriving.
///
/// ## Where work starts
/// A submission's closure runs once, on the limiter's context (the immediate context by default): on the
/// submitting thread when a slot is free, otherwise on the thread where a running future completed. It
/// should only *start* work and return its future. Starts go through the library's trampoline, so
/// thousands of queued items whose work completes at once start one after another in bounded stack.
///
/// ## The bound holds at the work
/// A slot is taken when the closure is called and freed only when **the future the closure returned**
/// completes — never earlier, whatever happens to the future `submit` returned. The limiter sees nothing
/// but that future, so let it be the work's own future, and put deadlines and other wrappers around the
/// item, not inside the closure:
///
/// ```swift
/// // deadline counted from the start
/// limiter.submit(timeout: .seconds(1.5)) { fetch(url) }
/// // deadline counted from the submission
/// limiter.submit { fetch(url) }.timeout(after: .seconds(1.5))
/// // ✗ frees the slot while fetch still runs
/// limiter.submit { fetch(url).timeout(after: .seconds(1.5)) }
/// ```
///
/// In the first two forms the deadline fails the item's future at once and asks the work to cancel (as one
/// of its consumers, GUARANTEES.md G8), and the slot stays taken until the work's future completes, so at
/// most `maxConcurrent` pieces of work ever run. In the last form the slot frees when the *timeout's*
/// future fails, while the work may still run: the bound no longer holds at the work. Use it only for work
/// that cannot be cancelled and whose slot you would rather lose than wait for.
///
/// ## Every future completes
/// Every future a `submit` returns completes, whatever happens to the limiter. The limiter ends an item
/// itself in three ways: removed unrun (a cancellation request while it waits, or ``close()``), refused
/// (submitted after ``close()``), or given up on while it runs by a drain at shutdown (`DrainingService`
/// in `FuturesServiceLifecycle`, once its deadline passed). So the returned future's failure type must be
/// able to say it:
/// - Without `failingWith:` it is `any Error`, whatever the work's failure type (a `Never`-failing work
///   included): an item ended unrun or refused fails with ``FuturesError/cancelled``, one given up on at
///   shutdown with ``FuturesError/shutDown``.
/// - With `failingWith:` it is the work's own `E`, and every way the limiter ends the item fails it with
///   that error.
///
/// ## Cancellation
/// - ``Future/requestCancellation()`` on a future from ``submit(priority:file:line:_:)`` while it
///   waits removes it from the queue in O(1): its closure is released unrun, and the future fails with
///   ``FuturesError/cancelled``, or the `failingWith:` error.
/// - While it runs, the request reaches the work's future as one of its consumers (GUARANTEES.md G8),
///   so the work decides how it ends, and its slot frees when it does.
/// - ``cancelAll()`` requests cancellation of everything submitted so far, and the limiter stays open;
///   ``close()`` shuts it for good: nothing submitted later runs.
///
/// ## Observing it
/// ``whenIdle()`` completes when nothing runs or waits (after ``close()``: when the running work has
/// drained), after every item's future has completed. A ``ConcurrencyLimiterObserver`` passed to ``init(maxConcurrent:startingOn:observer:)``
/// hears each item wait, start, finish and be removed, with how long it waited and ran (the `Metrics` trait's
/// `FuturesMetrics` records them); without one, the limiter pays a single `nil` check per event.
///
/// ## Memory and failures of the work
/// Running work keeps the limiter alive (its completion callbacks hold it); waiting work is held by the
/// limiter. A slot frees only when its work's future completes: work whose future never completes holds
/// its slot for good, even when a deadline failed the item's future — make the work honour cancellation
/// requests (`Promise.onCancellationRequested`, `Future(cancellable:)`, an `async` operation), so the
/// deadline's request ends it.
public final class ConcurrencyLimiter: Sendable {
    /// The order in which waiting work starts: higher priorities first, then submission order.
    public enum Priority: Sendable, CaseIterable, Comparable {
        /// Starts only when no work of a higher priority waits.
        case low
        /// The default.
        case normal
        /// Starts before any waiting work of a lower priority.
        case high

        /// Orders priorities from ``low`` to ``high``.
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.queueIndex < rhs.queueIndex }

        /// The index of this priority's queue in the limiter's state, lowest first.
        var queueIndex: Int {
            switch self {
            case .low: 0
            case .normal: 1
            case .high: 2
            }
        }
    }

    /// The most pieces of work that run at once (at least 1).
    public var maxConcurrent: Int { state.value.maxConcurrent }

    /// Where submitted closures run.
    let context: ExecutionContext
    let state: LockedBox<LimiterState>

    /// The limiter's one critical region: runs an event of its state machine under the lock and returns what
    /// to do, which the caller does after the region (starting work, failing futures, releasing closures).
    /// Debug builds check the whole state (`_checkInvariants()`) at the end of every region.
    func withState<R>(_ event: (inout LimiterState) -> R) -> R {
        state.withValue { state in
            let outcome = event(&state)
            #if DEBUG
                state._checkInvariants()
            #endif
            return outcome
        }
    }
    /// Set (under the state's lock) by ``close()``; read without the lock where work is about to start.
    private let closedFlag = Atomic<Bool>(false)
    /// Hears every event (see ``ConcurrencyLimiterObserver``); `nil`: nothing is measured.
    let observer: (any ConcurrencyLimiterObserver)?

    /// Creates a limiter that runs at most `maxConcurrent` pieces of work at once.
    ///
    /// - Parameters:
    ///   - maxConcurrent: The bound; values below 1 count as 1.
    ///   - context: Where submitted closures run. With the immediate context (the default) they run on
    ///     the submitting thread or on the thread that freed a slot; with another context they are handed
    ///     to it in start order (a concurrent context may then reorder them).
    ///   - observer: Hears every item wait, start, finish, be removed or be refused, with how long it waited
    ///     and ran (see ``ConcurrencyLimiterObserver``). `nil` (the default): nothing is measured, and each
    ///     event costs one `nil` check.
    public init(
        maxConcurrent: Int,
        startingOn context: ExecutionContext = immediateExecutionContext,
        observer: (any ConcurrencyLimiterObserver)? = nil
    ) {
        self.context = context
        self.state = LockedBox(LimiterState(maxConcurrent: maxConcurrent))
        self.observer = observer
    }

    /// How many pieces of work run now (started, and their futures not yet completed).
    public var runningCount: Int { state.value.running.count }

    /// How many pieces of work wait for a slot.
    public var queuedCount: Int { state.value.queuedCount }

    /// ``FuturesError/cancelled`` and ``FuturesError/shutDown`` as `any Error`, each boxed once: an
    /// `any Error` made from an enum case allocates its box, and every untyped item holds both.
    private static let cancelled: any Error = FuturesError.cancelled
    private static let shutDown: any Error = FuturesError.shutDown

    /// Whether ``close()`` was called.
    public var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

    /// Runs `work` when a slot is free and returns a future of its outcome, or of the limiter's refusal.
    ///
    /// `work` runs once, on the limiter's context (see *Where work starts* in ``ConcurrencyLimiter``), and
    /// should start the work and return its future. The returned future completes with that future's
    /// result; the slot stays taken until then (see *The bound holds at the work*). Its failure type is
    /// `any Error` whatever the work's is (a `Never`-failing work included), so that it can also say how
    /// the limiter ended it: every future this returns completes. To keep the work's own failure type,
    /// give the error to end it with (``submit(priority:failingWith:file:line:_:)``).
    ///
    /// - Parameters:
    ///   - priority: Where `work` waits when no slot is free (``Priority/normal`` by default).
    ///   - file: The call site recorded in the future's ``Future/failureTrace`` (when tracing is on) and
    ///     in a drain's report of what it left.
    ///   - line: The line of that call site.
    ///   - work: Starts the work. Released once it has run, or when the item is removed unrun.
    /// - Returns: A future of the work's outcome. It fails with ``FuturesError/cancelled`` when the item
    ///   ends unrun: its cancellation is requested while it waits (it is removed from the queue), or the
    ///   limiter is closed first (``close()``), or it is submitted after ``close()`` (it has then already
    ///   failed, and `work` was released unrun). It fails with ``FuturesError/shutDown`` when a drain gives
    ///   up on it while it runs (`DrainingService` in `FuturesServiceLifecycle`). A cancellation request on
    ///   it while it runs reaches the work's future as one of its consumers.
    public func submit<T, W>(
        priority: Priority = .normal,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () -> Future<T, W>
    ) -> Future<T, any Error> {
        enqueue(
            LimitedItem(
                priority: priority, cancellationError: Self.cancelled, shutdownError: Self.shutDown,
                deadline: nil, lift: { $0 }, file: file, line: line, work: work),
            file: file, line: line)
    }

    /// Runs `work` when a slot is free and returns a future of its outcome, of the work's own failure type:
    /// `cancellationError` says how the limiter ended it.
    ///
    /// As ``submit(priority:file:line:_:)``, keeping `E`: every way the limiter ends the item fails the
    /// returned future with `cancellationError` (an `E` has no other value to say it with), so every future
    /// this returns completes. A `Never`-failing work has no such value: submit it without
    /// `failingWith:`, and its future is an `any Error` one.
    ///
    /// - Parameters:
    ///   - priority: Where `work` waits when no slot is free (``Priority/normal`` by default).
    ///   - cancellationError: The failure of the returned future when the limiter ends the item: it is
    ///     removed unrun (its cancellation is requested while it waits, or ``close()`` ran first), it is
    ///     refused (submitted after ``close()``), or a drain gives up on it while it runs.
    ///   - file: The call site recorded in the future's ``Future/failureTrace`` (when tracing is on) and
    ///     in a drain's report of what it left.
    ///   - line: The line of that call site.
    ///   - work: Starts the work. Released once it has run, or when the item is removed unrun.
    /// - Returns: A future of the work's outcome, or of `cancellationError` (see above; after ``close()``
    ///   it has already failed with it, and `work` was released unrun). A cancellation request on it
    ///   removes waiting work, or reaches the running work's future as one of its consumers.
    public func submit<T, E>(
        priority: Priority = .normal,
        failingWith cancellationError: E,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () -> Future<T, E>
    ) -> Future<T, E> {
        enqueue(
            LimitedItem(
                priority: priority, cancellationError: cancellationError, shutdownError: cancellationError,
                deadline: nil, lift: { $0 }, file: file, line: line, work: work),
            file: file, line: line)
    }

    /// Runs `work` when a slot is free and returns a future of its outcome, failing with `timeoutError`
    /// when it has not completed `timeout` after it started.
    ///
    /// As ``submit(priority:failingWith:file:line:_:)``, with a deadline counted from when `work` starts
    /// (time spent waiting for a slot does not count): when it passes first, the returned future fails
    /// with `timeoutError` at once and the work's future is asked to cancel, as one of its consumers. The
    /// slot stays taken until the work's future completes, so the bound holds at the work even for work
    /// that takes a while to stop. `timeout` is clamped to 0…10⁹ s; the deadline fires from a task
    /// sleeping on `clock`.
    ///
    /// - Parameters:
    ///   - priority: Where `work` waits when no slot is free (``Priority/normal`` by default).
    ///   - cancellationError: The failure when the limiter ends the item (see
    ///     ``submit(priority:failingWith:file:line:_:)``).
    ///   - timeout: How long the work may run before the returned future fails.
    ///   - clock: The clock the deadline is measured on (`ContinuousClock()` by default).
    ///   - timeoutError: The failure of the returned future when the deadline passes first.
    ///   - file: The call site recorded in the future's ``Future/failureTrace`` (when tracing is on).
    ///   - line: The line of that call site.
    ///   - work: Starts the work. Released once it has run, or when the item is removed unrun.
    public func submit<T, E>(
        priority: Priority = .normal,
        failingWith cancellationError: E,
        timeout: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        timingOutWith timeoutError: E,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () -> Future<T, E>
    ) -> Future<T, E> {
        let deadline: @Sendable (Future<T, E>) -> Future<T, E> = { source in
            // The deadline is a `timeout` step at the caller's line, in failure traces and the
            // pending-futures report alike.
            source.timeout(after: timeout, clock: clock, failingWith: timeoutError, file: file, line: line)
        }
        return enqueue(
            LimitedItem(
                priority: priority, cancellationError: cancellationError, shutdownError: cancellationError,
                deadline: deadline, lift: { $0 }, file: file, line: line, work: work),
            file: file, line: line)
    }

    /// Runs `work` when a slot is free and returns a future of its outcome, failing with
    /// ``FuturesError/timedOut`` when it has not completed `timeout` after it started.
    ///
    /// The `any Error` form of ``submit(priority:failingWith:timeout:clock:timingOutWith:file:line:_:)``,
    /// for work of any failure type: the deadline is counted from the start, fails the returned future at
    /// once and asks the work to cancel; the slot stays taken until the work's future completes. The
    /// limiter ends the item as ``submit(priority:file:line:_:)`` says (``FuturesError/cancelled`` unrun,
    /// ``FuturesError/shutDown`` when a drain gives up on it), so every future this returns completes.
    ///
    /// - Parameters:
    ///   - priority: Where `work` waits when no slot is free (``Priority/normal`` by default).
    ///   - timeout: How long the work may run before the returned future fails (clamped to 0…10⁹ s).
    ///   - clock: The clock the deadline is measured on (`ContinuousClock()` by default).
    ///   - file: The call site recorded in the future's ``Future/failureTrace`` (when tracing is on).
    ///   - line: The line of that call site.
    ///   - work: Starts the work. Released once it has run, or when the item is removed unrun.
    public func submit<T, W>(
        priority: Priority = .normal,
        timeout: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        file: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () -> Future<T, W>
    ) -> Future<T, any Error> {
        let deadline: @Sendable (Future<T, W>) -> Future<T, any Error> = { source in
            let erased = source as? Future<T, any Error> ?? source.mapError(immediateExecutionContext) { $0 }
            return erased.timeout(
                after: timeout, clock: clock, failingWith: FuturesError.timedOut, file: file, line: line)
        }
        return enqueue(
            LimitedItem(
                priority: priority, cancellationError: Self.cancelled, shutdownError: Self.shutDown,
                deadline: deadline, lift: { $0 }, file: file, line: line, work: work),
            file: file, line: line)
    }

    /// Runs the async `operation` in a new Swift `Task` when a slot is free, and returns a future of its
    /// outcome, or of the limiter's refusal.
    ///
    /// The same as ``submit(priority:file:line:_:)`` with `Future(operation:)`: the task starts when the
    /// item does, and the slot stays taken until `operation` returns or throws. The future's failure type
    /// is `any Error` (a non-throwing or typed-throwing `operation` included), so that it can also say how
    /// the limiter ended it: ``FuturesError/cancelled`` unrun, ``FuturesError/shutDown`` when a drain gives
    /// up on it. To keep a typed failure, use ``submit(priority:failingWith:file:line:operation:)``.
    ///
    /// **Cancellation:** while waiting, the item is removed and the future fails with
    /// ``FuturesError/cancelled``; while running, the request cancels the Swift task, and the future
    /// completes with what `operation` then returns or throws (typically `CancellationError`).
    ///
    /// - Parameters:
    ///   - priority: Where the item waits when no slot is free (``Priority/normal`` by default). The Swift
    ///     task inherits the priority of the thread that starts it.
    ///   - file: The call site recorded in the future's ``Future/failureTrace`` (when tracing is on).
    ///   - line: The line of that call site.
    ///   - operation: The work; runs in its own task, not on the caller's actor.
    public func submit<T>(
        priority: Priority = .normal,
        file: StaticString = #fileID,
        line: UInt = #line,
        operation: @escaping @Sendable () async throws -> T
    ) -> Future<T, any Error> {
        let work: @Sendable () -> Future<T, any Error> = {
            Future<T, any Error>(file: file, line: line, operation: operation)
        }
        return enqueue(
            LimitedItem(
                priority: priority, cancellationError: Self.cancelled, shutdownError: Self.shutDown,
                deadline: nil, lift: { $0 }, file: file, line: line, work: work),
            file: file, line: line)
    }

    /// Runs the async `operation` in a new Swift `Task` when a slot is free, and returns a future of its
    /// outcome, of its typed failure: `cancellationError` says how the limiter ended it.
    ///
    /// As ``submit(priority:file:line:operation:)``, keeping `operation`'s typed throws `E`: every way the
    /// limiter ends the item (see ``submit(priority:failingWith:file:line:_:)``) fails the future with
    /// `cancellationError`. While running, a cancellation request cancels the Swift task, and the future
    /// completes with what `operation` then returns or throws.
    ///
    /// - Parameters:
    ///   - priority: Where the item waits when no slot is free (``Priority/normal`` by default).
    ///   - cancellationError: The failure when the limiter ends the item.
    ///   - file: The call site recorded in the future's ``Future/failureTrace`` (when tracing is on).
    ///   - line: The line of that call site.
    ///   - operation: The work; runs in its own task, not on the caller's actor.
    public func submit<T, E>(
        priority: Priority = .normal,
        failingWith cancellationError: E,
        file: StaticString = #fileID,
        line: UInt = #line,
        operation: @escaping @Sendable () async throws(E) -> T
    ) -> Future<T, E> {
        submit(priority: priority, failingWith: cancellationError, file: file, line: line) {
            Future<T, E>(file: file, line: line, operation: operation)
        }
    }

    /// Requests cancellation of every piece of work submitted so far: waiting ones are removed (and fail
    /// with ``FuturesError/cancelled`` or their `failingWith:` error), then running ones are asked to stop.
    ///
    /// A snapshot: the limiter stays open, and work submitted after this call (even from a callback it
    /// triggers) runs normally. To stop everything for good, use ``close()``. Each request runs its
    /// handlers on the calling thread.
    public func cancelAll() {
        var items: [any LimitedWork] = []
        items.reserveCapacity(state.value.itemCount)  // allocated before locking
        withState { $0.collectAll(into: &items) }
        for item in items {
            item.requestCancellation()
        }
    }

    /// Shuts the limiter for good: waiting work is removed unrun, running work is asked to stop, and
    /// nothing submitted later runs.
    ///
    /// - Waiting items are released unrun and their futures fail at once with ``FuturesError/cancelled``,
    ///   or their `failingWith:` error (see *Every future completes* in ``ConcurrencyLimiter``).
    /// - Running items get a cancellation request on their futures, which reaches each work's future as
    ///   one of its consumers (GUARANTEES.md G8): the work decides how it ends, and its future's result
    ///   is passed on as usual.
    /// - Later submissions fail at once, the same way, without calling their closures.
    /// - No work starts after `close()`: items whose start was already under way on another thread
    ///   are dropped unrun (and fail the same way) if they have not called their closure yet, else asked to
    ///   stop as soon as their closure returned its future.
    ///
    /// Calling it again does nothing. Drops and requests run on the calling thread, after the limiter's
    /// lock is released; the futures' callbacks run there too, as ``Future/onComplete(_:callback:)-(ExecutionContext,_)``
    /// says for the immediate context, or on their own contexts.
    public func close() {
        var queued: [any LimitedWork] = []
        var running: [any LimitedWork] = []
        let count = state.value.itemCount
        queued.reserveCapacity(count)  // allocated before locking
        running.reserveCapacity(Swift.min(count, maxConcurrent))
        let closedNow = withState { state -> Bool in
            guard state.close(queued: &queued, running: &running) else { return false }
            closedFlag.store(true, ordering: .releasing)
            return true
        }
        guard closedNow else { return }
        if let observer {
            let now = ContinuousClock.now
            for item in queued { observer.observe(.removed(queuedFor: item.elapsed(until: now))) }
        }
        for item in queued { item.drop() }
        for item in running { item.requestCancellation() }
    }

    // MARK: - Shutdown

    /// What a drain found still running in a limiter, or ended: where each item was submitted and how long
    /// ago, oldest first.
    package struct Leftover: Sendable, Hashable {
        /// The file of the `submit` call, as `#fileID` gave it.
        package let file: String
        /// The line of that call.
        package let line: UInt
        /// How long ago it was submitted, when the drain looked.
        package let age: Duration
    }

    /// The items running now, oldest first (a snapshot: each may complete at any time).
    package func runningLeftovers() -> [Leftover] {
        var items: [any LimitedWork] = []
        items.reserveCapacity(state.value.itemCount)  // allocated before locking
        withState { $0.collectRunning(into: &items) }
        return Self.leftovers(items, at: .now)
    }

    /// Closes the limiter (``close()``), then ends every item still running: its future fails at once with
    /// ``FuturesError/shutDown`` (or its `failingWith:` error), its slot is freed (an observer hears it
    /// finish), and ``whenIdle()`` completes once none is left. The work itself is not waited for: when its
    /// future completes later, nothing more happens. Returns the items it ended, oldest first.
    ///
    /// For a drain that gave up on work that ignored the close's cancellation request. The futures'
    /// callbacks run on the calling thread (or their contexts), after the limiter's lock is released.
    package func endRunning() -> [Leftover] {
        close()
        var ended: [any LimitedWork] = []
        ended.reserveCapacity(maxConcurrent)  // allocated before locking
        let idle = withState { state in
            state.endRunning(into: &ended)
            return state.takeIdleWaiter()
        }
        let now = ContinuousClock.now
        if let observer {
            for item in ended { observer.observe(.finished(ranFor: item.elapsed(until: now))) }
        }
        for item in ended { item.end() }
        idle?.complete(.success(()))
        return Self.leftovers(ended, at: now)
    }

    private static func leftovers(_ items: [any LimitedWork], at now: ContinuousClock.Instant) -> [Leftover] {
        items.sorted { $0.submitted < $1.submitted }.map { item in
            Leftover(file: item.site.file, line: item.site.line, age: now - item.submitted)
        }
    }

    // MARK: - Internal

    /// Runs `work` when a slot is free, like ``submit(priority:failingWith:file:line:_:)``, for an engine
    /// that drops its waiting items itself, by ``close()``, and only once the engine's own result has
    /// completed (``Swift/Sequence/traverse(maxConcurrent:_:file:line:f:)``, `traverseAsCompleted`): the
    /// item's future is never handed out. A cancellation request on it never removes the item from the
    /// queue, whatever its failure type: it starts in turn, and a request made while it waited reaches its
    /// work's future as soon as it starts. ``close()`` drops it unrun: its future fails with
    /// ``FuturesError/cancelled`` when `E` can hold it, else never completes (its callbacks are released).
    ///
    /// The returned future accepts requests from the start, so that a consumer registered on it while it
    /// waits (a gatherer) links its requests to it.
    func submitInTurn<T, E>(
        file: StaticString = #fileID, line: UInt = #line, _ work: @escaping @Sendable () -> Future<T, E>
    ) -> Future<T, E> {
        let cancellationError = Future<T, E>.cancellationError
        let item = LimitedItem(
            priority: .normal, cancellationError: cancellationError, shutdownError: cancellationError,
            deadline: nil, removableWhileQueued: false, lift: { $0 }, file: file, line: line, work: work)
        return enqueue(item, file: file, line: line)
    }

    /// Registers a new item: starts it, queues it, or drops it when closed; returns its future.
    private func enqueue<T, W, E>(_ item: LimitedItem<T, W, E>, file: StaticString, line: UInt) -> Future<T, E> {
        let future = item.future
        if FailureTracing.isOn {
            FailureTracing.produced(future, name: "submit", site: CallSite(file: file, line: line))
        }
        if item.isRemovable {
            // Registered before the future is handed out, so requests through derived futures reach it.
            future.onCancellationRequested { [weak self, weak item] in
                guard let self, let item else { return }
                self.removeIfQueued(item)
            }
        } else {
            // Nothing reacts while it waits, but its work will: consumers registered meanwhile must link
            // their requests to it, which the work then gets when it starts.
            future.acceptCancellationRequests()
        }
        // Stamped before another thread can take it out of its queue.
        if observer != nil { item.mark = item.submitted }
        let (admission, progress) = withState { ($0.submit(item), $0.progress) }
        if let progress { ProgressLink.includeItem(future, in: progress) }
        if let observer { observer.observe(admission.event) }
        switch admission {
        case .start: launch(item)
        case .queued: break
        case .rejected: item.drop()
        }
        return future
    }

    /// Removes `item` from its queue if it still waits there, and drops it.
    func removeIfQueued(_ item: any LimitedWork) {
        if withState({ $0.remove(item) }) {
            if let observer { observer.observe(.removed(queuedFor: item.elapsed(until: .now))) }
            item.drop()
        }
    }

    /// A running item's work ended (or it was given a slot as the limiter closed): frees its slot, runs
    /// `completion` (which completes the item's future), starts the next item if one waits, and then
    /// completes ``whenIdle()``'s future if nothing runs or waits any more. When a drain already ended the
    /// item (``endRunning()``), its slot is free and its future failed: only `completion` runs, which then
    /// completes nothing.
    func finish(_ item: any LimitedWork, then completion: () -> Void = {}) {
        let (freed, next, idle) = withState { state in
            let (freed, next) = state.finish(item)
            return (freed, next, freed ? state.takeIdleWaiter() : nil)
        }
        if freed, let observer {
            let now = ContinuousClock.now
            observer.observe(.finished(ranFor: item.elapsed(until: now)))
            if let next {
                observer.observe(.started(queuedFor: next.elapsed(until: now)))
                next.mark = now  // owned here until launched: it is out of its queue, not started yet
            }
        }
        completion()
        if let next { launch(next) }
        if let idle { idle.complete(.success(())) }
    }

    /// Starts `item` on the limiter's context. On the immediate context the start goes through the
    /// trampoline, so a cascade of items completing at once (each starting the next) nests a bounded
    /// number of frames.
    func launch(_ item: any LimitedWork) {
        if context.isImmediate {
            Trampoline.run((self, item)) { $1.start(in: $0) }
        } else {
            context.execute { item.start(in: self) }
        }
    }

    /// Work units the queues did so far (for the cost tests).
    var steps: Int { state.value.steps }

    /// Queue slots in storage, live or removed (for the cost tests).
    var storedSlots: Int { state.value.storedSlots }
}

/// One submission: its closure until it starts, and the future it completes. The work's future fails with
/// `W`; the item's future with `E`, which `lift` makes of a `W` (`E` is `W`, or `any Error`).
///
/// `work` is written at creation and then touched by exactly one of two paths, each of which owns the
/// item after taking it out of the limiter's state under the limiter's lock: ``start(in:)`` (the item was
/// given a slot) or ``drop()`` (it was removed from its queue, or refused). `queueIndex` is only accessed
/// under the limiter's lock. So no field is ever accessed concurrently.
final class LimitedItem<T: Sendable, W: Error, E: Error>: LimitedWork {
    let future = Future<T, E>()
    let priority: ConcurrencyLimiter.Priority
    /// The failure of the future when the item ends unrun, if it has one (every public submission has).
    let cancellationError: E?
    /// The failure of the future when a drain ends it while it runs (``ConcurrencyLimiter/endRunning()``).
    let shutdownError: E?
    /// Whether a cancellation request while it waits removes it: it can fail with a cancellation error,
    /// and it was not submitted to keep its place (``ConcurrencyLimiter/submitInTurn(file:line:_:)``).
    /// Otherwise the request waits for its work.
    let isRemovable: Bool
    /// Where it was submitted, and when (for a drain's report of what it left).
    let site: CallSite
    let submitted: ContinuousClock.Instant
    /// Makes the item's failure of the work's.
    private let lift: @Sendable (W) -> E
    /// Wraps the work's future in the item's deadline (``ConcurrencyLimiter/submit(priority:failingWith:timeout:clock:timingOutWith:file:line:_:)``).
    private let deadline: (@Sendable (Future<T, W>) -> Future<T, E>)?
    nonisolated(unsafe) var queueIndex = -1
    /// When it was submitted, then when it started; stamped only for a limiter with an observer. Written
    /// before it enters the limiter's state and by the path that took it out of its queue before it is
    /// launched; read after its work ends. Each access happens after the previous one through the
    /// limiter's lock, the launch or the work's future, so none is concurrent.
    nonisolated(unsafe) var mark: ContinuousClock.Instant?
    nonisolated(unsafe) private var work: (@Sendable () -> Future<T, W>)?

    init(
        priority: ConcurrencyLimiter.Priority,
        cancellationError: E?,
        shutdownError: E?,
        deadline: (@Sendable (Future<T, W>) -> Future<T, E>)?,
        removableWhileQueued: Bool = true,
        lift: @escaping @Sendable (W) -> E,
        file: StaticString,
        line: UInt,
        work: @escaping @Sendable () -> Future<T, W>
    ) {
        self.priority = priority
        self.cancellationError = cancellationError
        self.shutdownError = shutdownError
        self.isRemovable = removableWhileQueued && cancellationError != nil
        self.deadline = deadline
        self.lift = lift
        self.site = CallSite(file: file, line: line)
        self.submitted = .now
        #if ServiceContext
            // The work runs with the trace context of its submission, whoever starts it (see `ContextTravel`).
            self.work = ContextTravel.boundAlways(work)
        #else
            self.work = work
        #endif
    }

    func start(in limiter: ConcurrencyLimiter) {
        guard let work else { return }
        self.work = nil
        if limiter.isClosed {
            // Given a slot just before the limiter closed: it must not start. (Nothing waits any more, so
            // freeing the slot starts nothing; `work` is released when this returns.)
            limiter.finish(self) { endUnrun() }
            return
        }
        let source = work()
        if let deadline {
            start(source, deadline: deadline, in: limiter)
            return
        }
        // If cancellation was requested while `work` ran, this asks `source` at once.
        future.depend(on: source) { [self] result in
            limiter.finish(self) { _ = future.complete(result.mapError(lift)) }
        }
    }

    /// Starts with a deadline: the future completes with `deadline(source)`'s result (which asks
    /// `source` to cancel when it fires), while the slot is freed only when `source` itself completes.
    private func start(
        _ source: Future<T, W>, deadline: @Sendable (Future<T, W>) -> Future<T, E>, in limiter: ConcurrencyLimiter
    ) {
        // An observer, not a consumer: the deadline's request alone decides whether `source` is asked.
        source.observe(immediateExecutionContext) { [self] result in
            limiter.finish(self)
        }
        let outward = deadline(source)
        // The item takes the deadline's result as its own (its trace and progress continue the
        // deadline's, which continue the work's).
        future.depend(on: outward) { [self] result in _ = future.complete(result) }
    }

    func drop() {
        work = nil
        endUnrun()
    }

    var canEnd: Bool { shutdownError != nil }

    func end() {
        if let shutdownError { _ = future.complete(.failure(shutdownError)) }
    }

    /// Ends the future of an item that never ran: fails it with the cancellation error, or, without one
    /// (an engine's item, whose result has completed), releases its callbacks.
    private func endUnrun() {
        if let cancellationError {
            _ = future.complete(.failure(cancellationError))
        } else {
            future.abandon()
        }
    }

    func requestCancellation() {
        future.requestCancellation()
    }
}
