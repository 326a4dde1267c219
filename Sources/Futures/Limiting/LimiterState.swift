/// A piece of work submitted to a ``ConcurrencyLimiter``, seen by the limiter's state machine without its
/// value and error types.
protocol LimitedWork: AnyObject, Sendable {
    /// Its priority in the limiter's queues.
    var priority: ConcurrencyLimiter.Priority { get }
    /// Whether it waits in a queue of the limiter. Read and written only under the limiter's lock.
    var isQueued: Bool { get set }
    /// Runs the work and reports its end to `limiter`. Called once, outside the limiter's lock.
    func start(in limiter: ConcurrencyLimiter)
    /// Releases the work without running it and fails its future with its cancellation error (if it has
    /// one). Called once, outside the limiter's lock, after the work was taken out of its queue.
    func drop()
    /// Requests cancellation of the work's future (which removes it from its queue, or reaches the work).
    func requestCancellation()
}

/// The queue of one priority: first in, first out, with O(1) amortised removal.
///
/// Removing an item only clears its `isQueued` flag, leaving a tombstone that ``popFirst()`` skips; the
/// slots before `head` have been taken. Both are compacted away once they make up half of the array, so
/// every operation costs O(1) amortised and the array holds at most about twice the live items.
struct LimiterQueue: Sendable {
    private(set) var slots: [(any LimitedWork)?] = []
    private var head = 0
    /// Tombstones among the slots from `head` on.
    private var removed = 0
    /// Items waiting (not removed).
    var count: Int { slots.count - head - removed }

    mutating func append(_ item: any LimitedWork, steps: inout Int) {
        slots.append(item)
        steps += 1
    }

    /// Takes the oldest waiting item, skipping removed ones.
    mutating func popFirst(steps: inout Int) -> (any LimitedWork)? {
        defer { compactHead(steps: &steps) }
        while head < slots.count {
            let item = slots[head]
            slots[head] = nil
            head += 1
            steps += 1
            if let item, item.isQueued { return item }
            removed -= 1
        }
        return nil
    }

    /// Records that one of the items was removed (its flag is already cleared).
    mutating func noteRemoved(steps: inout Int) {
        removed += 1
        steps += 1
        guard removed >= 32, removed * 2 >= slots.count - head else { return }
        var kept: [(any LimitedWork)?] = []
        kept.reserveCapacity(count)
        for case let item? in slots[head...] where item.isQueued {
            kept.append(item)
        }
        steps += slots.count - head
        slots = kept
        head = 0
        removed = 0
    }

    private mutating func compactHead(steps: inout Int) {
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= slots.count {
            steps += slots.count - head
            slots.removeFirst(head)
            head = 0
        }
    }
}

/// The state machine of a ``ConcurrencyLimiter``: which items run and which wait, in which order.
///
/// Pure bookkeeping: every event runs under the limiter's lock and returns what to do; the limiter does it
/// after unlocking (starting work, failing futures, releasing closures).
struct LimiterState: Sendable {
    let maxConcurrent: Int
    /// The items running, by identity (to reach them from ``takeAll()``).
    private(set) var running: [ObjectIdentifier: any LimitedWork] = [:]
    /// One queue per priority, lowest first.
    private var queues = [LimiterQueue](repeating: LimiterQueue(), count: ConcurrencyLimiter.Priority.allCases.count)
    private(set) var queuedCount = 0
    /// Work units done so far (queue slots written, skipped or moved); tests check they grow linearly.
    private(set) var steps = 0
    /// The limiter's aggregate progress, once someone asked for it (see `ConcurrencyLimiter.progress`).
    var progress: ProgressTracker?

    init(maxConcurrent: Int) {
        self.maxConcurrent = Swift.max(maxConcurrent, 1)
    }

    /// Storage slots of the queues (live items and tombstones); tests check it stays bounded.
    var storedSlots: Int { queues.reduce(0) { $0 + $1.slots.count } }

    /// A new item: it runs now if a slot is free (returned), else it waits in its priority's queue.
    mutating func submit(_ item: any LimitedWork) -> (any LimitedWork)? {
        if running.count < maxConcurrent {
            running[ObjectIdentifier(item)] = item
            return item
        }
        item.isQueued = true
        queues[item.priority.rawValue].append(item, steps: &steps)
        queuedCount += 1
        return nil
    }

    /// A running item ended: frees its slot and returns the next item to start, if one waits.
    mutating func finish(_ item: any LimitedWork) -> (any LimitedWork)? {
        running[ObjectIdentifier(item)] = nil
        guard running.count < maxConcurrent, queuedCount > 0 else { return nil }
        for priority in queues.indices.reversed() {
            if let next = queues[priority].popFirst(steps: &steps) {
                next.isQueued = false
                queuedCount -= 1
                running[ObjectIdentifier(next)] = next
                return next
            }
        }
        return nil
    }

    /// Takes `item` out of its queue; returns whether it was waiting there (`false`: it runs, or ran).
    mutating func remove(_ item: any LimitedWork) -> Bool {
        guard item.isQueued else { return false }
        item.isQueued = false
        queuedCount -= 1
        queues[item.priority.rawValue].noteRemoved(steps: &steps)
        return true
    }

    /// Every item: the waiting ones (highest priority first, oldest first), then the running ones. Waiting
    /// ones stay queued: a cancellation request on each removes it.
    func all() -> [any LimitedWork] {
        var items: [any LimitedWork] = []
        items.reserveCapacity(queuedCount + running.count)
        for queue in queues.reversed() {
            for case let item? in queue.slots where item.isQueued {
                items.append(item)
            }
        }
        items.append(contentsOf: running.values)
        return items
    }
}
