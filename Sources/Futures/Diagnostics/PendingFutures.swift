import Synchronization

/// A chain of pending futures: the future that nothing else pending explains (a ``Promise`` nobody
/// completed, a future waiting for one that is not tracked) and the pending futures derived from it.
///
/// Take them with ``FuturesDiagnostics/pendingFutures()`` while
/// ``FuturesDiagnostics/tracksPendingFutures`` is on; print one, or the whole
/// ``FuturesDiagnostics/pendingFuturesReport()``, to see where a program waits (each
/// entry's "waits for" is on a line of its own here):
///
/// ```
/// Promise at App/Login.swift:10, pending for 12.5 s,
///     waits for whoever completes it
///   map at App/Login.swift:12, 12.5 s,
///     waits for Promise at App/Login.swift:10
///   flatMap at App/Login.swift:13, 12.5 s,
///     waits for map at App/Login.swift:12
/// ```
public struct PendingFuture: Sendable, CustomStringConvertible {
    /// One pending future derived, directly or through others, from the chain's first future.
    public struct Dependent: Sendable, CustomStringConvertible {
        /// The combinator that created it and where it was called.
        public let site: FailureTrace.Step
        /// How long ago it was created, when the snapshot was taken.
        public let age: Duration
        /// The futures it waits for now: its source, or for `flatMap` and `recoverWith` once their
        /// closure ran, the future the closure returned; for `zip`, `sequence` and `traverse`, their
        /// inputs still pending. Empty when that future is not tracked.
        public let waitsOn: [FailureTrace.Step]
        let awaits: Awaits

        /// `site, age, waits for …`, one line.
        public var description: String {
            "\(site), \(PendingFutureRegistry.format(age)), \(awaits.phrase(waitsOn))"
        }
    }

    /// The producer (`Promise`, `Future(resolver:)`, `retry`, a limiter's `submit`, …) or combinator
    /// that created the chain's first future, and where it was called.
    public let site: FailureTrace.Step
    /// How long ago the first future was created, when the snapshot was taken.
    public let age: Duration
    /// What the first future waits for: empty for a producer, which waits for whoever completes it (a
    /// promise's owner, a resolver, a task); else the sites of the futures it waits for, which are no
    /// longer pending or were created while tracking was off (then empty).
    public let waitsOn: [FailureTrace.Step]
    /// The pending futures derived from the first one, directly or through others, oldest first.
    public let dependents: [Dependent]
    let awaits: Awaits

    /// The first future on one line (`site, pending for age, waits for …`), then each dependent on a
    /// line of its own, indented.
    public var description: String {
        var lines = ["\(site), pending for \(PendingFutureRegistry.format(age)), \(awaits.phrase(waitsOn))"]
        for dependent in dependents { lines.append("  \(dependent)") }
        return lines.joined(separator: "\n")
    }

    /// What a pending future waits for, in words.
    enum Awaits: Sendable {
        case producer
        case untracked
        case futures

        func phrase(_ steps: [FailureTrace.Step]) -> String {
            switch self {
            case .producer: "waits for whoever completes it"
            case .untracked: "waits for a future created while tracking was off"
            case .futures: "waits for " + steps.map(\.description).joined(separator: " and ")
            }
        }
    }
}

extension FuturesDiagnostics {
    /// Whether the futures created from now on are tracked while they are pending, for
    /// ``pendingFutures()``; `false` by default.
    ///
    /// While on, each future a ``Promise``, ``Future/init(file:line:resolver:)`` or a combinator creates
    /// records where it was created, when, and what it waits for, in a process-wide registry of at most
    /// ``pendingFuturesLimit`` futures; the entry goes away as soon as the future completes or is
    /// deallocated, and the registry never keeps a future alive. The futures that failure traces record
    /// are tracked (see ``FailureTrace`` for the list, which includes every gathering combinator), and
    /// tracked futures also record their
    /// ``Future/failureTrace``, which shares the records. Turning it off forgets every entry; futures
    /// created while it was off are never tracked.
    ///
    /// Cost: while off (and failure tracing is off too), creating a future pays one relaxed atomic load,
    /// the one failure tracing already pays: nothing is allocated or locked. While on, a tracked future
    /// costs a trace node, a side-table entry, a registry entry and a completion observer (a few
    /// allocations and three short lock holds): meant for debugging a hang or a test, not for every
    /// request of a production service.
    public static var tracksPendingFutures: Bool {
        get { PendingFutureRegistry.processSwitch.load(ordering: .relaxed) }
        set {
            let (exchanged, _) = PendingFutureRegistry.processSwitch.compareExchange(
                expected: !newValue, desired: newValue, ordering: .relaxed)
            guard exchanged else { return }
            if newValue {
                PendingFutureRegistry.reset()
                FailureTracing.gate.add(1, ordering: .relaxed)
            } else {
                FailureTracing.gate.subtract(1, ordering: .relaxed)
                PendingFutureRegistry.reset()
            }
        }
    }

    /// The most futures the pending-futures registry holds at once; 10,000 by default (a few hundred
    /// bytes each). Values below 0 count as 0.
    ///
    /// When the registry is full, futures created meanwhile are not tracked and are counted in
    /// ``pendingFuturesLeftOut`` instead: the registry keeps the oldest pending futures, which are the
    /// ones a hang leaves behind, rather than evicting them for newer ones. Lowering the limit evicts
    /// nothing; it applies to futures created afterwards.
    public static var pendingFuturesLimit: Int {
        get { PendingFutureRegistry.state.withValue { $0.limit } }
        set { PendingFutureRegistry.state.withValue { $0.limit = max(0, newValue) } }
    }

    /// How many futures created since tracking was turned on were left out because the registry was
    /// full (``pendingFuturesLimit``). Some of them may have completed since.
    public static var pendingFuturesLeftOut: Int {
        PendingFutureRegistry.state.withValue { $0.leftOut }
    }

    /// How many tracked futures are pending now (0 while ``tracksPendingFutures`` is off): the number of
    /// futures ``pendingFutures()`` would list, chains and dependents together, without building them.
    ///
    /// Cost: one short lock hold; safe to sample from any thread (a metrics gauge, say).
    public static var pendingFuturesCount: Int {
        PendingFutureRegistry.state.withValue { $0.records.count }
    }

    /// A snapshot of the tracked futures still pending, one ``PendingFuture`` per chain, oldest first:
    /// each chain's first future (the one that nothing else pending explains) with the pending futures
    /// derived from it. Empty while ``tracksPendingFutures`` is off.
    ///
    /// A future that gathers several pending inputs (`zip`, `sequence`, `traverse`) is listed in the
    /// chain of the first of them, with every pending input in its ``PendingFuture/Dependent/waitsOn``.
    ///
    /// Accuracy: the registry is copied at one instant, under its lock; a future completing on another
    /// thread meanwhile may or may not be listed, and every age is measured from the same "now", taken
    /// after the copy. Futures left out because the registry was full (``pendingFuturesLeftOut``), or
    /// created while tracking was off, are missing.
    ///
    /// Cost: one lock hold to copy the registry, then O(n log n) in the number n of tracked pending
    /// futures, outside the lock. Safe to call from any thread, also while the program hangs.
    public static func pendingFutures() -> [PendingFuture] {
        PendingFutureRegistry.snapshot()
    }

    /// ``pendingFutures()`` as text for `print`: a headline with the number of pending futures and chains
    /// (and of futures left out, if any), then each chain as ``PendingFuture/description`` prints it.
    ///
    /// ```
    /// 3 pending futures in 1 chain
    /// Promise at App/Login.swift:10, pending for 12.5 s,
    ///     waits for whoever completes it
    ///   map at App/Login.swift:12, 12.5 s,
    ///     waits for Promise at App/Login.swift:10
    ///   flatMap at App/Login.swift:13, 12.5 s,
    ///     waits for map at App/Login.swift:12
    /// ```
    ///
    /// Costs and accuracy as for ``pendingFutures()``.
    public static func pendingFuturesReport() -> String {
        let chains = pendingFutures()
        let leftOut = pendingFuturesLeftOut
        let count = chains.reduce(0) { $0 + 1 + $1.dependents.count }
        var headline = "\(count) pending future\(count == 1 ? "" : "s") in \(chains.count) chain"
        if chains.count != 1 { headline += "s" }
        if !tracksPendingFutures { headline += " (tracking is off)" }
        if leftOut > 0 { headline += "; \(leftOut) more left out (the registry was full)" }
        return ([headline] + chains.map(\.description)).joined(separator: "\n")
    }
}

/// The process-wide registry of tracked pending futures (``FuturesDiagnostics/tracksPendingFutures``).
///
/// Each tracked future's trace node (its step, site and links) is kept here, keyed by the node, with the
/// time it was created; the future holds a ``PendingFutureToken`` in its `FutureExtras` entry, whose
/// `deinit` removes the record when the future is deallocated, and an observer removes it when the future
/// completes. The registry holds nodes only, never futures. Records are released after the lock.
enum PendingFutureRegistry {
    static let processSwitch = Atomic<Bool>(false)

    /// One tracked pending future.
    struct Record: Sendable {
        let id: UInt64
        let node: TraceNode
        let created: ContinuousClock.Instant
        let kind: Kind
        var inputs: [TraceNode] = []
    }

    enum Kind: Sendable {
        case producer, derived, gathered
    }

    struct State: Sendable {
        var records: [ObjectIdentifier: Record] = [:]
        var nextID: UInt64 = 0
        var leftOut = 0
        var limit = 10_000
    }

    static let state = LockedBox(State())

    /// Whether futures created now are tracked. Read only once failure tracing's gate is open.
    static var isTracking: Bool { processSwitch.load(ordering: .relaxed) }

    /// Forgets every record and the left-out count (the records are released after the lock).
    static func reset() {
        let dropped = state.withValue { state -> [ObjectIdentifier: Record] in
            state.leftOut = 0
            defer { state.records = [:] }
            return state.records
        }
        _ = consume dropped
    }

    /// Tracks `future`, whose trace node is `node`: records it (unless the registry is full) and returns
    /// the token its side-table entry keeps, or `nil` when it was left out.
    static func track<T, E>(_ future: Future<T, E>, node: TraceNode, kind: Kind) -> PendingFutureToken? {
        let created = ContinuousClock.now
        let key = ObjectIdentifier(node)
        let id: UInt64? = state.withValue { state in
            guard state.records.count < state.limit else {
                state.leftOut += 1
                return nil
            }
            state.nextID &+= 1
            state.records[key] = Record(id: state.nextID, node: node, created: created, kind: kind)
            return state.nextID
        }
        guard let id else { return nil }
        future.observe(immediateExecutionContext) { _ in remove(key, id: id) }
        return PendingFutureToken(key: key, id: id)
    }

    /// Notes that the tracked gathering future whose node is `gathered` waits for an input whose node is
    /// `input` (`nil`: untracked, nothing to note).
    static func addInput(_ input: TraceNode?, to gathered: TraceNode) {
        guard let input else { return }
        state.withValue { $0.records[ObjectIdentifier(gathered)]?.inputs.append(input) }
    }

    /// Removes the record `id` of the node `key`, if it is still there; releases it after the lock.
    static func remove(_ key: ObjectIdentifier, id: UInt64) {
        let removed = state.withValue { state -> Record? in
            guard state.records[key]?.id == id else { return nil }
            return state.records.removeValue(forKey: key)
        }
        _ = consume removed
    }

    /// The chains of the tracked pending futures (see ``FuturesDiagnostics/pendingFutures()``).
    static func snapshot() -> [PendingFuture] {
        let records = state.withValue { Array($0.records.values) }.sorted { $0.id < $1.id }
        let now = ContinuousClock.now
        var index: [ObjectIdentifier: Int] = [:]
        for (position, record) in records.enumerated() { index[ObjectIdentifier(record.node)] = position }

        // What each record waits for, and the record it is listed under (the first pending one of those).
        var awaited: [(awaits: PendingFuture.Awaits, nodes: [TraceNode])] = []
        var parent: [Int?] = []
        for record in records {
            let links = record.node.awaitedLinks
            let waited: (PendingFuture.Awaits, [TraceNode])
            if links.followsInner {
                waited = links.inner.map { (.futures, [$0]) } ?? (.untracked, [])
            } else {
                switch record.kind {
                case .producer: waited = (.producer, [])
                case .derived: waited = links.upstream.map { (.futures, [$0]) } ?? (.untracked, [])
                case .gathered:
                    let pending = record.inputs.filter { index[ObjectIdentifier($0)] != nil }
                    waited = pending.isEmpty ? (.untracked, []) : (.futures, pending)
                }
            }
            awaited.append(waited)
            parent.append(waited.1.lazy.compactMap { index[ObjectIdentifier($0)] }.first)
        }

        // The root of each record, found without recursion; a cycle (a promise completed with a future
        // derived from itself) makes the record where it closes a root.
        var root = [Int](repeating: -1, count: records.count)
        var onPath = [Bool](repeating: false, count: records.count)
        var path: [Int] = []
        for start in records.indices where root[start] < 0 {
            var current = start
            var found: Int
            while true {
                if root[current] >= 0 {
                    found = root[current]
                    break
                }
                path.append(current)
                onPath[current] = true
                guard let next = parent[current], !onPath[next] else {
                    found = current
                    break
                }
                current = next
            }
            for member in path {
                root[member] = found
                onPath[member] = false
            }
            path.removeAll(keepingCapacity: true)
        }

        var dependents: [Int: [PendingFuture.Dependent]] = [:]
        for (position, record) in records.enumerated() where root[position] != position {
            let waited = awaited[position]
            dependents[root[position], default: []].append(
                PendingFuture.Dependent(
                    site: record.node.step, age: now - record.created, waitsOn: waited.nodes.map(\.step),
                    awaits: waited.awaits))
        }
        return records.indices.filter { root[$0] == $0 }.map { position in
            let record = records[position]
            let waited = awaited[position]
            return PendingFuture(
                site: record.node.step, age: now - record.created, waitsOn: waited.nodes.map(\.step),
                dependents: dependents[position] ?? [], awaits: waited.awaits)
        }
    }

    /// An age for people: milliseconds below 10 s, seconds with one decimal below 10 min, then minutes
    /// and seconds.
    static func format(_ age: Duration) -> String {
        let milliseconds = age.components.seconds * 1000 + age.components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 10_000 { return "\(milliseconds) ms" }
        let tenths = milliseconds / 100
        if tenths < 6000 { return "\(tenths / 10).\(tenths % 10) s" }
        return "\(tenths / 600) min \(tenths / 10 % 60) s"
    }
}

/// Kept in a tracked future's side-table entry: removes its registry record when the future is
/// deallocated (a completed future's record is gone already).
final class PendingFutureToken: Sendable {
    let key: ObjectIdentifier
    let id: UInt64

    init(key: ObjectIdentifier, id: UInt64) {
        self.key = key
        self.id = id
    }

    deinit {
        PendingFutureRegistry.remove(key, id: id)
    }
}
