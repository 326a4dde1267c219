/// A piece of work submitted to a ``ConcurrencyLimiter``, seen by the limiter's state machine without its
/// value and error types.
protocol LimitedWork: AnyObject, Sendable {
    /// Its priority in the limiter's queues.
    var priority: ConcurrencyLimiter.Priority { get }
    /// Its slot in its priority's queue while it waits there, else `-1`. Read and written only under the
    /// limiter's lock.
    var queueIndex: Int { get set }
    /// When it was submitted, then when it started (for a limiter with an observer only, else `nil`).
    var mark: ContinuousClock.Instant? { get set }
    /// Runs the work and reports its end to `limiter`. Called once, outside the limiter's lock.
    func start(in limiter: ConcurrencyLimiter)
    /// Releases the work without running it and ends its future: fails it with its cancellation error, or
    /// abandons it (its callbacks are released) when it has none (an engine's item, whose result has
    /// completed). Called once, outside the limiter's lock, after the work was taken out of the limiter's
    /// state.
    func drop()
    /// Where it was submitted.
    var site: CallSite { get }
    /// When it was submitted.
    var submitted: ContinuousClock.Instant { get }
    /// Whether ``end()`` can end its future (it has a shutdown error).
    var canEnd: Bool { get }
    /// Fails its future with its shutdown error while its work may still run. Called once, outside the
    /// limiter's lock, after the item was taken out of the running ones (``LimiterState/endRunning(into:)``).
    func end()
    /// Requests cancellation of the work's future (which removes it from its queue when it can be
    /// removed, or reaches the work).
    func requestCancellation()
}

extension LimitedWork {
    /// Whether it waits in a queue. Under the limiter's lock.
    var isQueued: Bool { queueIndex >= 0 }

    /// The time from its ``mark`` to `now` (zero when it was not stamped).
    func elapsed(until now: ContinuousClock.Instant) -> Duration {
        mark.map { now - $0 } ?? .zero
    }
}

/// The queue of one priority: first in, first out, with O(1) amortised removal.
///
/// Each waiting item knows its slot (`queueIndex`), so removing it clears its slot at once: an emptied slot
/// holds nothing, and the queue never drops the last reference to an item under the limiter's lock (the
/// one removing an item holds it; a popped item is returned). ``popFirst()`` skips the emptied slots; the
/// slots before `head` have been taken. Both are compacted away in place (no allocation) once they make up
/// half of the array, so every operation costs O(1) amortised and the array holds at most about twice the
/// live items.
struct LimiterQueue: Sendable {
    private(set) var slots: [(any LimitedWork)?] = []
    private var head = 0
    /// Emptied slots from `head` on.
    private var removed = 0
    /// Items waiting (not removed).
    var count: Int { slots.count - head - removed }

    mutating func append(_ item: any LimitedWork, steps: inout Int) {
        item.queueIndex = slots.count
        slots.append(item)
        steps += 1
    }

    /// Takes the oldest waiting item, skipping emptied slots.
    mutating func popFirst(steps: inout Int) -> (any LimitedWork)? {
        defer { compactHead(steps: &steps) }
        while head < slots.count {
            let item = slots[head]
            slots[head] = nil
            head += 1
            steps += 1
            if let item {
                item.queueIndex = -1
                return item
            }
            removed -= 1
        }
        return nil
    }

    /// Takes `item`, which waits in this queue, out of its slot. The caller holds `item`: the slot's
    /// reference is never the last one.
    mutating func remove(_ item: any LimitedWork, steps: inout Int) {
        slots[item.queueIndex] = nil
        item.queueIndex = -1
        removed += 1
        steps += 1
        guard removed >= 32, removed * 2 >= slots.count - head else { return }
        // Moves the live items to the front, in order; only emptied slots are cut off.
        var kept = 0
        for index in head..<slots.count {
            guard let live = slots[index] else { continue }
            slots[index] = nil
            live.queueIndex = kept
            slots[kept] = live
            kept += 1
        }
        steps += slots.count - head
        slots.removeLast(slots.count - kept)
        head = 0
        removed = 0
    }

    /// Takes every waiting item out (they are appended to `items`, oldest first), leaving the queue empty.
    mutating func takeAll(into items: inout [any LimitedWork]) {
        for index in head..<slots.count {
            guard let live = slots[index] else { continue }
            slots[index] = nil
            live.queueIndex = -1
            items.append(live)
        }
        slots.removeAll()
        head = 0
        removed = 0
    }

    private mutating func compactHead(steps: inout Int) {
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= slots.count {
            steps += slots.count - head
            slots.removeFirst(head)  // emptied slots only
            head = 0
            for index in slots.indices { slots[index]?.queueIndex = index }
        }
    }
}

/// The state machine of a ``ConcurrencyLimiter``: which items run and which wait, in which order.
///
/// Pure bookkeeping: every event runs under the limiter's lock and returns what to do; the limiter does it
/// after unlocking (starting work, failing futures, releasing closures). No event drops the last reference
/// to an item: the items it takes out are returned, or held by the caller.
struct LimiterState: Sendable {
    /// What to do with a new submission.
    enum Admission {
        /// A slot was free: start it now.
        case start
        /// It waits in its queue.
        case queued
        /// The limiter is closed: drop it unrun.
        case rejected

        /// What an observer hears of it.
        var event: ConcurrencyLimiter.Event {
            switch self {
            case .start: .started(queuedFor: nil)
            case .queued: .queued
            case .rejected: .refused
            }
        }
    }

    let maxConcurrent: Int
    /// The items running, by identity (to reach them from ``collectAll(into:)`` and ``close(into:)``).
    private(set) var running: [ObjectIdentifier: any LimitedWork] = [:]
    /// One queue per priority, lowest first.
    private(set) var queues = [LimiterQueue](
        repeating: LimiterQueue(), count: ConcurrencyLimiter.Priority.allCases.count)
    private(set) var queuedCount = 0
    /// Whether ``close(into:)`` ran: no item is admitted or started any more.
    private(set) var isClosed = false
    /// Work units done so far (queue slots written, skipped or moved); tests check they grow linearly.
    private(set) var steps = 0
    /// The limiter's aggregate progress, once someone asked for it (see `ConcurrencyLimiter.progress`).
    var progress: ProgressTracker?
    /// The future of ``ConcurrencyLimiter/whenIdle()``, while someone waits for the limiter to be idle.
    var idleWaiter: Future<Void, Never>?

    init(maxConcurrent: Int) {
        self.maxConcurrent = Swift.max(maxConcurrent, 1)
    }

    /// Storage slots of the queues (live items and emptied slots); tests check it stays bounded.
    var storedSlots: Int { queues.reduce(0) { $0 + $1.slots.count } }

    /// A new item: it runs now if a slot is free, else it waits in its priority's queue; refused once
    /// closed.
    mutating func submit(_ item: any LimitedWork) -> Admission {
        if isClosed { return .rejected }
        if running.count < maxConcurrent {
            running[ObjectIdentifier(item)] = item
            return .start
        }
        queues[item.priority.queueIndex].append(item, steps: &steps)
        queuedCount += 1
        return .queued
    }

    /// A running item ended (or was dropped before it started): frees its slot and returns the next item
    /// to start, if one waits. `freed` is `false` when the item no longer ran (``endRunning(into:)`` took
    /// it out): nothing changes then. The caller holds `item`.
    mutating func finish(_ item: any LimitedWork) -> (freed: Bool, next: (any LimitedWork)?) {
        guard running.removeValue(forKey: ObjectIdentifier(item)) != nil else { return (false, nil) }
        guard running.count < maxConcurrent, queuedCount > 0 else { return (true, nil) }
        for priority in queues.indices.reversed() {
            if let next = queues[priority].popFirst(steps: &steps) {
                queuedCount -= 1
                running[ObjectIdentifier(next)] = next
                return (true, next)
            }
        }
        return (true, nil)
    }

    /// Appends the running items to `items`; they keep running. Reserve `items`' capacity before locking.
    func collectRunning(into items: inout [any LimitedWork]) {
        items.append(contentsOf: running.values)
    }

    /// Takes every running item that can be ended (``LimitedWork/canEnd``) out of the running ones, freeing
    /// their slots, and appends them to `items`; the caller ends them. Only once closed: nothing waits,
    /// so the freed slots start nothing.
    mutating func endRunning(into items: inout [any LimitedWork]) {
        precondition(isClosed, "Futures: a ConcurrencyLimiter's running items are ended only once it is closed")
        for (key, item) in running where item.canEnd {
            running[key] = nil
            items.append(item)
        }
    }

    /// Takes `item` out of its queue; returns whether it was waiting there (`false`: it runs, or ran, or
    /// was dropped). The caller holds `item`.
    mutating func remove(_ item: any LimitedWork) -> Bool {
        guard item.isQueued else { return false }
        queues[item.priority.queueIndex].remove(item, steps: &steps)
        queuedCount -= 1
        return true
    }

    /// Appends every item to `items`: the waiting ones (highest priority first, oldest first), then the
    /// running ones. Waiting ones stay queued. Reserve `items`' capacity before locking (``itemCount``).
    func collectAll(into items: inout [any LimitedWork]) {
        for queue in queues.reversed() {
            for case let item? in queue.slots {
                items.append(item)
            }
        }
        items.append(contentsOf: running.values)
    }

    /// How many items wait or run.
    var itemCount: Int { queuedCount + running.count }

    /// Takes the future of ``ConcurrencyLimiter/whenIdle()`` out when nothing runs or waits, to complete
    /// after unlocking; `nil` otherwise, or when nobody waits (one check).
    mutating func takeIdleWaiter() -> Future<Void, Never>? {
        guard idleWaiter != nil, itemCount == 0 else { return nil }
        defer { idleWaiter = nil }
        return idleWaiter
    }

    /// Closes: no item is admitted or started from now on. Appends the waiting items to `queued` (taken out
    /// of their queues, highest priority first) and the running ones to `running`; the caller drops the
    /// former and asks the latter to cancel. Returns `false` (taking nothing) if it was closed already.
    mutating func close(queued: inout [any LimitedWork], running runningItems: inout [any LimitedWork]) -> Bool {
        guard !isClosed else { return false }
        isClosed = true
        for priority in queues.indices.reversed() {
            queues[priority].takeAll(into: &queued)
        }
        queuedCount = 0
        runningItems.append(contentsOf: running.values)
        return true
    }
}
