/// The write side of a ``CancellationToken``: create one per cancellable operation, hand its
/// ``token`` to the producers, and call ``cancel()`` when the result is no longer wanted.
///
/// ```swift
/// let source = CancellationSource()
/// let thumbnails = loadThumbnails(cancellationToken: source.token)
/// // later, when the user leaves the screen:
/// source.cancel()
/// ```
///
/// Registrations on its token are kept in a table keyed by registration: registering, disposing and
/// cancelling cost O(1) amortised per handler, however many handlers the token has. When the source is
/// deallocated (or ``dispose()`` is called) before cancelling, every registered handler is released
/// without running, since nobody can cancel any more.
public final class CancellationSource: Sendable {
    /// The handlers of the token; ``cancel()`` runs them, ``dispose()`` releases them.
    let cell = CancellationHub()
    /// Bumped by every call that schedules or stops a delayed cancellation, so only the latest fires.
    let delayGeneration = LockedBox<Int>(0)
    /// The timer task of the latest ``cancel(after:clock:)``, stopped when a later call replaces it.
    let delayTimer = LockedBox<(generation: Int, task: ClockTimer?)>((0, nil))

    /// Creates a source whose token is not cancelled.
    public init() {}

    deinit {
        cell.close()
    }

    /// The token producers observe.
    public var token: CancellationToken {
        CancellationToken(signal: cell)
    }

    /// `true` once ``cancel()`` was called (before any ``dispose()``).
    public var isCancellationRequested: Bool {
        cell.isCancellationRequested
    }

    /// Requests cancellation: the token's handlers run now, on the calling thread, each once, in the
    /// order they were registered. Later calls, and calls after ``dispose()``, do nothing.
    public func cancel() {
        cell.requestCancellation()
    }

    /// Requests cancellation once `duration` has passed on `clock` (a timer task sleeping on it).
    ///
    /// ```swift
    /// let source = CancellationSource()
    /// source.cancel(after: .seconds(30))   // give up after 30 seconds
    /// ```
    ///
    /// - The handlers run on the timer's task, as with ``cancel()``. A zero or negative duration
    ///   cancels at once, on the calling thread. Durations longer than 10⁹ s are clamped.
    /// - A new call replaces the cancellation scheduled before it (its timer is stopped).
    /// - The timer keeps the source alive until it fires; it does nothing if the source was cancelled
    ///   or disposed meanwhile.
    public func cancel(after duration: Duration, clock: some Clock<Duration> = ContinuousClock()) {
        let generation = delayGeneration.withValue { value -> Int in
            value += 1
            return value
        }
        if duration <= .zero {
            stopDelayTimer(upTo: generation)?.cancel()
            cancel()
            return
        }
        let timer = ClockTimer(after: duration, on: clock) {
            if self.delayGeneration.value == generation {
                self.cancel()
            }
        }
        // Keep the timer of the newest call; stop the other one (after unlocking).
        let stopped = delayTimer.withValue { current -> ClockTimer? in
            if current.generation > generation { return timer }
            let replaced = current.task
            current = (generation, timer)
            return replaced
        }
        stopped?.cancel()
    }

    /// Stops the cancellation that ``cancel(after:clock:)`` scheduled, if any, without scheduling another
    /// (its timer is stopped and released), for a face whose spelling has such a call.
    package func stopScheduledCancellation() {
        let generation = delayGeneration.withValue { value -> Int in
            value += 1
            return value
        }
        stopDelayTimer(upTo: generation)?.cancel()
    }

    /// Takes the stored timer task if it belongs to a call no newer than `generation`.
    func stopDelayTimer(upTo generation: Int) -> ClockTimer? {
        delayTimer.withValue { current -> ClockTimer? in
            guard current.generation <= generation else { return nil }
            let task = current.task
            current = (generation, nil)
            return task
        }
    }

    /// Releases every registered handler without running it; ``cancel()`` does nothing afterwards and
    /// the token stays as it is. Idempotent.
    public func dispose() {
        cell.close()
    }
}

/// The handlers registered on a ``CancellationSource``'s token, in a table keyed by registration
/// number, so that a registration is removed in O(1).
///
/// Handlers run, and are released, after the lock is released.
final class CancellationHub: CancellationSignal, @unchecked Sendable {
    // `@unchecked Sendable`: every field below is only read and written inside `lock.withLock`; the
    // handlers are `@Sendable` and are called after unlocking.
    private let lock = ParkingLock()
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var nextKey = 0
    private var requested = false
    private var closed = false
    /// Table operations performed (for the complexity test).
    private var visits = 0

    var isCancellationRequested: Bool {
        lock.withLock { requested }
    }

    /// What ``registerCancellationHandler(_:)`` decided under the lock.
    private enum Registration {
        /// Cancellation was requested already: the handler runs now, on the calling thread.
        case runNow
        /// Closed: the handler is not kept and never runs.
        case refused
        /// Kept under `key`.
        case stored(key: Int)
    }

    func registerCancellationHandler(_ handler: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
        let registration = lock.withLock { () -> Registration in
            if requested { return .runNow }
            if closed { return .refused }
            let key = nextKey
            nextKey += 1
            visits += 1
            handlers[key] = handler
            return .stored(key: key)
        }
        switch registration {
        case .runNow:
            handler()
            return nil
        case .refused:
            return nil
        case .stored(let key):
            return { [weak self] in self?.remove(key) }
        }
    }

    /// Removes the handler registered as `key` (if still there) and releases it after unlocking.
    private func remove(_ key: Int) {
        let removed = lock.withLock { () -> (@Sendable () -> Void)? in
            visits += 1
            return handlers.removeValue(forKey: key)
        }
        _ = consume removed
    }

    /// Runs every handler once, in registration order (the first request only, unless closed).
    func requestCancellation() {
        let taken = lock.withLock { () -> [Int: @Sendable () -> Void]? in
            guard !requested, !closed else { return nil }
            requested = true
            let taken = handlers
            handlers = [:]
            return taken
        }
        guard let taken else { return }
        for key in taken.keys.sorted() { taken[key]?() }
    }

    /// Releases every handler without running it; later requests do nothing.
    func close() {
        let taken = lock.withLock { () -> [Int: @Sendable () -> Void] in
            closed = true
            let taken = handlers
            handlers = [:]
            return taken
        }
        _ = consume taken
    }

    /// How many handlers are registered (for tests).
    var handlerCountForTesting: Int {
        lock.withLock { handlers.count }
    }

    /// Table operations performed so far (for the complexity test).
    var visitsForTesting: Int {
        lock.withLock { visits }
    }
}
