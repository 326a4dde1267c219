/// How far a piece of work has come: units done of a total, at one moment.
///
/// Units are whatever the producer counts (bytes, files, steps); an aggregate's units are the sum of its
/// parts' units, where a part that reports nothing counts as one unit that is done when it completes.
public struct ProgressSnapshot: Sendable, Hashable {
    /// Units done so far (never more than ``total`` once the total is known).
    public var completed: Double
    /// Units in all, or `0` while unknown.
    public var total: Double
    /// `true` once the work has completed (with success or failure); ``completed`` then equals ``total``.
    public var isFinished: Bool

    /// Creates a snapshot.
    public init(completed: Double, total: Double, isFinished: Bool = false) {
        self.completed = completed
        self.total = total
        self.isFinished = isFinished
    }

    /// ``completed`` over ``total`` in `0...1`: `0` while the total is unknown, `1` once finished.
    public var fractionCompleted: Double {
        if isFinished { return 1 }
        guard total > 0 else { return 0 }
        return min(1, max(0, completed / total))
    }
}

/// The live progress of a future (or of a ``ConcurrencyLimiter``'s work): its current
/// ``ProgressSnapshot``, updates as callbacks or as an `AsyncSequence`, and a Foundation `Progress` that
/// follows it.
///
/// Get it with ``Future/progress``. A ``Promise`` created with ``Promise/init(progressTotal:file:line:)``
/// reports through ``Promise/reportProgress(completed:of:)`` or ``Promise/reportProgress(fraction:)``;
/// futures derived from it pass the progress on (`map`, `flatMap`, `recover`, …) or add it up
/// (`sequence`, `traverse`, `zip`). See <doc:ReportingProgress>.
///
/// ```swift
/// let download = Promise<Data, any Error>(progressTotal: 3)
/// let parsed = download.future.map { data in data.count }
/// parsed.progress.onUpdate(immediateExecutionContext) { snapshot in
///     print("\(Int(snapshot.fractionCompleted * 100))%")
/// }
/// download.reportProgress(completed: 1)  // prints 33%
/// ```
///
/// ## Delivery
/// Updates are coalesced: an observer that is still busy with one update gets only the newest one after
/// it, never a stale one, and never the same snapshot twice in a row. Each observer's calls run one at a
/// time, on its context. The last update of a future's progress has ``ProgressSnapshot/isFinished`` set;
/// nothing follows it. A tracker keeps no lock while it runs your code.
public final class ProgressTracker: Sendable {
    let state: LockedBox<ProgressState>

    init(_ state: ProgressState) {
        self.state = LockedBox(state)
    }

    /// A tracker for a future nobody reports on: one unit, done when the future completes.
    static func unit() -> ProgressTracker {
        ProgressTracker(ProgressState(own: ProgressState.Part(completed: 0, total: 1), ownIsImplicit: true))
    }

    /// A tracker that sums parts added later with ``addPart()``.
    static func aggregate() -> ProgressTracker {
        ProgressTracker(ProgressState(own: nil, ownIsImplicit: false))
    }

    /// The progress now.
    public var current: ProgressSnapshot { state.withValue { $0.snapshot } }

    /// Calls `body` on `context` with the current progress, then with every later change, until the
    /// work finishes (the last call has ``ProgressSnapshot/isFinished`` set).
    ///
    /// Changes that arrive while a call is pending or running are coalesced into one call with the
    /// newest snapshot. On a finished tracker `body` runs once, with the final snapshot. On the immediate
    /// context calls run on the thread that reported (through the trampoline). Cancelling the future
    /// changes nothing here: `body` sees the final snapshot when the future completes, however it
    /// completes.
    public func onUpdate(
        _ context: ExecutionContext = defaultContext(),
        _ body: @escaping @Sendable (ProgressSnapshot) -> Void
    ) {
        _ = add(ProgressObserver(context: context, body: body))
    }

    /// The updates as an `AsyncSequence`: the current progress first, then each change, ending after the
    /// finished snapshot.
    ///
    /// Only the newest snapshot is buffered while the consumer is busy (updates are coalesced).
    /// Cancelling the consuming task ends the sequence and releases its observer. The progress of a
    /// ``ConcurrencyLimiter`` never finishes: its sequence ends only by cancellation.
    public var updates: AsyncStream<ProgressSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ProgressSnapshot.self,
            bufferingPolicy: .bufferingNewest(1)
        )
        let observer = ProgressObserver(context: immediateExecutionContext) { snapshot in
            continuation.yield(snapshot)
            if snapshot.isFinished { continuation.finish() }
        }
        if add(observer) {
            continuation.onTermination = { [weak self, weak observer] _ in
                guard let self, let observer else { return }
                self.remove(observer)
            }
        }
        return stream
    }

    // MARK: - Internal

    /// Adds `observer` and offers it the current snapshot; `false` if the tracker was finished (the
    /// observer then got the final snapshot only).
    @discardableResult
    func add(_ observer: ProgressObserver) -> Bool {
        let (snapshot, version, stored) = state.withValue { state -> (ProgressSnapshot, UInt64, Bool) in
            if !state.finished { state.observers.append(observer) }
            return (state.snapshot, state.version, !state.finished)
        }
        observer.offer(snapshot, version: version)
        return stored
    }

    func remove(_ observer: ProgressObserver) {
        let removed = state.withValue { state -> ProgressObserver? in
            guard let index = state.observers.firstIndex(where: { $0 === observer }) else { return nil }
            return state.observers.remove(at: index)
        }
        _ = consume removed  // released after the lock
    }

    /// Changes the state with `change` (under the lock) and, if the snapshot changed, tells observers and
    /// parents (after the lock).
    func change(_ change: (inout ProgressState) -> Void) {
        let notice = state.withValue { state -> ProgressState.Notice? in
            guard !state.finished else { return nil }
            let before = state.snapshot
            change(&state)
            return state.notice(ifChangedFrom: before)
        }
        notice?.deliver()
    }

    /// The work completed: the progress reads complete from now on; observers get the final snapshot and
    /// are released.
    func finish() {
        let notice = state.withValue { state -> ProgressState.Notice? in
            guard !state.finished else { return nil }
            let before = state.snapshot
            state.finished = true
            return state.notice(ifChangedFrom: before, force: true)
        }
        notice?.deliver()
    }

    /// Adds a part worth one unit, not yet done; returns its slot. A tracker that only stood for "one unit
    /// done at completion" drops that unit: the parts are now the whole of it.
    func addPart() -> Int {
        state.withValue { state in
            if state.ownIsImplicit {
                state.own = nil
                state.ownIsImplicit = false
            }
            state.parts.append(ProgressState.Part(completed: 0, total: 1))
            return state.parts.count - 1
        }
    }

    /// Sets a part's value, unless a newer one (higher `version`) is there already.
    func setPart(_ slot: Int, _ snapshot: ProgressSnapshot, version: UInt64) {
        change { state in
            guard version > state.parts[slot].version else { return }
            state.parts[slot] = ProgressState.Part(snapshot, version: version)
        }
    }

    /// Makes this tracker feed `slot` of `parent`, now and at every change.
    func feed(_ parent: ProgressTracker, slot: Int) {
        let (snapshot, version) = state.withValue { state -> (ProgressSnapshot, UInt64) in
            if !state.finished { state.parents.append((parent, slot)) }
            return (state.snapshot, state.version)
        }
        parent.setPart(slot, snapshot, version: version)
    }
}

/// What a ``ProgressTracker`` guards with its lock.
struct ProgressState: Sendable {
    struct Part: Sendable {
        var completed: Double
        var total: Double
        var version: UInt64 = 0

        init(completed: Double, total: Double) {
            self.completed = completed
            self.total = total
        }

        init(_ snapshot: ProgressSnapshot, version: UInt64) {
            // A part with an unknown total still weighs one unit, so it shows up in the sum.
            if snapshot.total > 0 {
                completed = snapshot.isFinished ? snapshot.total : snapshot.completed
                total = snapshot.total
            } else {
                completed = snapshot.isFinished ? 1 : 0
                total = 1
            }
            self.version = version
        }
    }

    /// What to tell after a change: computed under the lock, delivered after it.
    struct Notice {
        let snapshot: ProgressSnapshot
        let version: UInt64
        let observers: [ProgressObserver]
        let parents: [(ProgressTracker, Int)]

        func deliver() {
            for observer in observers { observer.offer(snapshot, version: version) }
            // Through the trampoline: a report on the source of a derived chain of any length travels
            // down it in bounded stack.
            for (parent, slot) in parents {
                Trampoline.run((parent, slot, snapshot, version)) { $0.setPart($1, $2, version: $3) }
            }
        }
    }

    /// The producer's own count, or the implicit unit of a future nobody reports on.
    var own: Part?
    var ownIsImplicit: Bool
    var parts: [Part] = []
    var finished = false
    /// Increases with every change, so parents can drop stale values that arrive late. Starts above a
    /// part's initial `0`, so the first value fed to a parent is taken.
    var version: UInt64 = 1
    var observers: [ProgressObserver] = []
    var parents: [(ProgressTracker, Int)] = []

    init(own: Part?, ownIsImplicit: Bool) {
        self.own = own
        self.ownIsImplicit = ownIsImplicit
    }

    var snapshot: ProgressSnapshot {
        var completed = own?.completed ?? 0
        var total = own?.total ?? 0
        for part in parts {
            completed += part.completed
            total += part.total
        }
        if finished {
            if total <= 0 { total = 1 }
            return ProgressSnapshot(completed: total, total: total, isFinished: true)
        }
        return ProgressSnapshot(completed: min(completed, total > 0 ? total : completed), total: total)
    }

    mutating func notice(ifChangedFrom before: ProgressSnapshot, force: Bool = false) -> Notice? {
        let after = snapshot
        guard force || after != before else { return nil }
        version &+= 1
        let notice = Notice(snapshot: after, version: version, observers: observers, parents: parents)
        if finished {
            observers = []
            parents = []
        }
        return notice
    }
}

/// One `onUpdate` registration: coalesces snapshots and runs its body one call at a time on its context.
final class ProgressObserver: Sendable {
    struct Mailbox: Sendable {
        var latest: ProgressSnapshot?
        var lastOffered: ProgressSnapshot?
        /// The tracker's version of `lastOffered`: notices computed under the tracker's lock can arrive
        /// out of order from two reporting threads, and an older one must not follow a newer one.
        var lastVersion: UInt64 = 0
        var running = false
        var done = false
    }

    let context: ExecutionContext
    let body: @Sendable (ProgressSnapshot) -> Void
    let mailbox = LockedBox(Mailbox())

    init(context: ExecutionContext, body: @escaping @Sendable (ProgressSnapshot) -> Void) {
        self.context = context
        self.body = body
    }

    func offer(_ snapshot: ProgressSnapshot, version: UInt64) {
        let start = mailbox.withValue { box -> Bool in
            guard !box.done, version > box.lastVersion else { return false }
            box.lastVersion = version
            guard snapshot != box.lastOffered else { return false }
            box.lastOffered = snapshot
            if snapshot.isFinished { box.done = true }
            box.latest = snapshot
            guard !box.running else { return false }
            box.running = true
            return true
        }
        if start { context.executeOnce { self.drain() } }
    }

    private func drain() {
        while true {
            let next = mailbox.withValue { box -> ProgressSnapshot? in
                guard let latest = box.latest else {
                    box.running = false
                    return nil
                }
                box.latest = nil
                return latest
            }
            guard let next else { return }
            body(next)
        }
    }
}
