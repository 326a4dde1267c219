/// Runs at most a fixed number of pieces of work at once, starting the rest in submission order as
/// slots free up: for work discovered on the fly (a crawler's next links, an API client's requests).
///
/// ```swift
/// let limiter = ConcurrencyLimiter(maxConcurrent: 8)
///
/// func crawl(_ url: URL) {
///     limiter.submit { session.dataFuture(from: url) }      // Future<(Data, URLResponse), any Error>
///         .onSuccess { page, _ in
///             for link in links(in: page) { crawl(link) }   // queued behind the running ones
///         }
/// }
///
/// let profile = limiter.submit { try await api.fetchProfile(id) }   // async work, same slots
/// ```
///
/// ``Swift/Sequence/traverse(maxConcurrent:_:f:)`` needs its whole list up front; a limiter is an object to
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
/// ## Cancellation
/// - ``Future/requestCancellation()`` on a future from ``submit(priority:failingWith:_:)`` while it
///   waits removes it from the queue in O(1): its closure is released unrun, and the future fails with
///   the `failingWith:` error, else ``FuturesError/cancelled`` when its failure type can hold it
///   (`any Error`, `FuturesError`); otherwise (`Never`, your own type) it never completes, and its
///   callbacks are released.
/// - While it runs, the request reaches the work's future as one of its consumers (GUARANTEES.md G8),
///   so the work decides how it ends, and its slot frees when it does.
/// - ``cancelAll()`` requests cancellation of everything submitted so far.
///
/// ## Memory and failures of the work
/// Running work keeps the limiter alive (its completion callbacks hold it); waiting work is held by the
/// limiter. A slot frees only when its work's future completes: work whose future never completes holds
/// its slot for good (bound it with ``Future/timeout(after:clock:)->Future<T,TimeoutError<E>>``).
public final class ConcurrencyLimiter: Sendable {
    /// The order in which waiting work starts: higher priorities first, then submission order.
    public enum Priority: Int, Sendable, CaseIterable, Comparable {
        /// Starts only when no work of a higher priority waits.
        case low
        /// The default.
        case normal
        /// Starts before any waiting work of a lower priority.
        case high

        /// Orders priorities from ``low`` to ``high``.
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The most pieces of work that run at once (at least 1).
    public var maxConcurrent: Int { state.value.maxConcurrent }

    /// Where submitted closures run.
    let context: ExecutionContext
    let state: LockedBox<LimiterState>

    /// Creates a limiter that runs at most `maxConcurrent` pieces of work at once.
    ///
    /// - Parameters:
    ///   - maxConcurrent: The bound; values below 1 count as 1.
    ///   - context: Where submitted closures run. With the immediate context (the default) they run on
    ///     the submitting thread or on the thread that freed a slot; with another context they are handed
    ///     to it in start order (a concurrent context may then reorder them).
    public init(maxConcurrent: Int, startingOn context: ExecutionContext = immediateExecutionContext) {
        self.context = context
        self.state = LockedBox(LimiterState(maxConcurrent: maxConcurrent))
    }

    /// How many pieces of work run now (started, and their futures not yet completed).
    public var runningCount: Int { state.value.running.count }

    /// How many pieces of work wait for a slot.
    public var queuedCount: Int { state.value.queuedCount }

    /// Runs `work` when a slot is free and returns a future of its outcome.
    ///
    /// `work` runs once, on the limiter's context (see *Where work starts* in ``ConcurrencyLimiter``), and
    /// should start the work and return its future. The returned future completes with that future's
    /// result; the slot stays taken until then.
    ///
    /// - Parameters:
    ///   - priority: Where `work` waits when no slot is free (``Priority/normal`` by default).
    ///   - cancellationError: The failure of the returned future when its cancellation is requested
    ///     while it waits. When `nil` (the default) it is ``FuturesError/cancelled`` if `E` can hold it;
    ///     otherwise the future then never completes (its callbacks are released).
    ///   - work: Starts the work. Released once it has run, or when the item is removed unrun.
    /// - Returns: A future of the work's outcome. A cancellation request on it removes waiting work, or
    ///   reaches the running work's future as one of its consumers.
    public func submit<T, E>(
        priority: Priority = .normal,
        failingWith cancellationError: E? = nil,
        _ work: @escaping @Sendable () -> Future<T, E>
    ) -> Future<T, E> {
        let item = LimitedItem(priority: priority, cancellationError: cancellationError, work: work)
        let future = item.future
        // Registered before the future is handed out, so requests through derived futures reach it.
        future.onCancellationRequested { [weak self, weak item] in
            guard let self, let item else { return }
            self.removeIfQueued(item)
        }
        let (start, progress) = state.withValue { ($0.submit(item), $0.progress) }
        if let progress { ProgressLink.includeItem(future, in: progress) }
        if let start {
            launch(start)
        }
        return future
    }

    /// Runs the async `operation` in a new Swift `Task` when a slot is free, and returns a future of its
    /// outcome.
    ///
    /// The same as ``submit(priority:failingWith:_:)`` with `Future(operation:)`: the task starts when
    /// the item does, and the slot stays taken until `operation` returns or throws. The error type
    /// follows `operation`'s typed throws (`throws` gives `any Error`).
    ///
    /// **Cancellation:** while waiting, the item is removed and the future fails with
    /// ``FuturesError/cancelled`` when `E` can hold it (otherwise it never completes); while running, the
    /// request cancels the Swift task, and the future completes with what `operation` then returns or
    /// throws (typically `CancellationError`).
    ///
    /// - Parameters:
    ///   - priority: Where the item waits when no slot is free (``Priority/normal`` by default). The Swift
    ///     task inherits the priority of the thread that starts it.
    ///   - operation: The work; runs in its own task, not on the caller's actor.
    public func submit<T, E>(
        priority: Priority = .normal,
        operation: @escaping @Sendable () async throws(E) -> T
    ) -> Future<T, E> {
        submit(priority: priority) { Future<T, E>(operation: operation) }
    }

    /// Requests cancellation of every piece of work submitted so far: waiting ones are removed (and fail
    /// as described in ``submit(priority:failingWith:_:)``), then running ones are asked to stop.
    ///
    /// The limiter stays usable: work submitted after this call (even from a callback it triggers) runs
    /// normally. Each request runs its handlers on the calling thread.
    public func cancelAll() {
        let items = state.withValue { $0.all() }
        for item in items {
            item.requestCancellation()
        }
    }

    // MARK: - Internal

    /// Removes `item` from its queue if it still waits there, and drops it.
    func removeIfQueued(_ item: any LimitedWork) {
        if state.withValue({ $0.remove(item) }) {
            item.drop()
        }
    }

    /// A running item's future completed: frees its slot; returns the next item to start, if any.
    func finish(_ item: any LimitedWork) -> (any LimitedWork)? {
        state.withValue { $0.finish(item) }
    }

    /// Starts `item` on the limiter's context. On the immediate context the start goes through the
    /// trampoline, so a cascade of items completing at once (each starting the next) nests a bounded
    /// number of frames.
    func launch(_ item: any LimitedWork) {
        if context.isImmediate {
            Trampoline.run({ item.start(in: self) }, orQueue: { item.start(in: self) })
        } else {
            context.execute { item.start(in: self) }
        }
    }

    /// Work units the queues did so far (for the cost tests).
    var steps: Int { state.value.steps }

    /// Queue slots in storage, live or removed (for the cost tests).
    var storedSlots: Int { state.value.storedSlots }
}

/// One submission: its closure until it starts, and the future it completes.
///
/// `work` is written at creation and then touched by exactly one of two paths, each of which owns the
/// item after taking it out of the limiter's state under the limiter's lock: ``start(in:)`` (the item was
/// started) or ``drop()`` (it was removed from its queue). `isQueued` is only accessed under the limiter's
/// lock. So no field is ever accessed concurrently.
final class LimitedItem<T: Sendable, E: Error>: LimitedWork {
    let future = Future<T, E>()
    let priority: ConcurrencyLimiter.Priority
    let cancellationError: E?
    nonisolated(unsafe) var isQueued = false
    nonisolated(unsafe) private var work: (@Sendable () -> Future<T, E>)?

    init(
        priority: ConcurrencyLimiter.Priority,
        cancellationError: E?,
        work: @escaping @Sendable () -> Future<T, E>
    ) {
        self.priority = priority
        self.cancellationError = cancellationError
        self.work = work
    }

    func start(in limiter: ConcurrencyLimiter) {
        guard let work else { return }
        self.work = nil
        let source = work()
        let registration = source.whenComplete(immediateExecutionContext) { [self] result in
            let next = limiter.finish(self)
            future.complete(result)
            if let next { limiter.launch(next) }
        }
        if registration.hasExtras { ProgressLink.follow(source, by: future) }
        // If cancellation was requested while `work` ran, this asks `source` at once.
        future.forwardsCancellation(to: source, after: registration)
    }

    func drop() {
        work = nil
        if let error = cancellationError ?? Future<T, E>.cancellationError {
            future.complete(.failure(error))
        }
    }

    func requestCancellation() {
        future.requestCancellation()
    }
}
