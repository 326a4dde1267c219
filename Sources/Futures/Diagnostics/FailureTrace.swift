import Synchronization

/// The chain of call sites a failure went through: the producer (a ``Promise`` or
/// ``Future/init(file:line:resolver:)``), then each combinator (`map`, `flatMap`, `recover`, …) up to the
/// future you asked, in that order.
///
/// Traces are recorded only while failure tracing is on — for the process
/// (``FuturesDiagnostics/failureTracing``) or for a task (``FuturesDiagnostics/withFailureTracing(_:)``)
/// — and only for futures created meanwhile. Read one with ``Future/failureTrace``; ``Future/debug(_:logger:file:line:function:context:fileID:)-(_,_,_,_,_,ExecutionContext,_)``
/// prints it for a failure.
///
/// ```swift
/// FuturesDiagnostics.withFailureTracing {
///     let promise = Promise<Int, any Error>()          // Login.swift:10
///     let name = promise.future
///         .map { $0 + 1 }                              // Login.swift:12
///         .flatMap { fetchName($0) }                   // Login.swift:13
///     promise.failure(URLError(.timedOut))
///     // later, once `name` failed:
///     print(name.failureTrace!)
///     // Promise at Login.swift:10 → map at Login.swift:12
///     //   → flatMap at Login.swift:13
/// }
/// ```
///
/// A step that fails by itself (its closure throws, or `flatMap`'s future fails) starts the trace: the
/// steps before it succeeded and are left out; for `flatMap` and `recoverWith` the steps of the inner
/// future come first. When the failure came from a future created while tracing was off (or from
/// `Future(error:)`, which has no call site), ``isComplete`` is `false` and the description starts
/// with `…`.
///
/// Traced steps: `Promise`, `Future(file:line:resolver:)`, `map`, `flatMap`, `mapError`, `recover`,
/// `recoverWith`, `andThen`, `filter` and their throwing forms, `consumer`, `timeout`, `delay`,
/// `asVoid`, `forceType`, `promoteError`, `promoteValue`, `flatten`, the steps of a `Deferred`, and every
/// gathering step — `sequence`, `traverse` (also bounded), `fold`, `settled`, `zip` of any arity, `race`,
/// `firstCompleted` —, whose trace continues the trace of the input whose failure arrived first. The
/// producers `Future.retry` (its trace continues the trace of the attempt whose failure it passes on, so
/// `… → retry at …` when the attempts were untraced; a cancellation error starts at `retry`), a
/// limiter's `submit` (with a `timeout` step at the same line when it has a deadline), `Future.after`,
/// a queue's `asyncValue`, `asyncResult` and `asyncValueAfter`, and `URLSession`'s `dataFuture` and
/// `dataFutureReportingProgress` (a transport error starts at them) are traced too. The faces' own
/// futures (`BFTask`, `BoltsSwift`, `SimpleFutures`) are traced where they are built on these steps.
public struct FailureTrace: Sendable, Equatable, CustomStringConvertible {
    /// One step: the combinator (or producer) and where it was called.
    public struct Step: Sendable, Equatable, CustomStringConvertible {
        /// The combinator's name (`map`, `flatMap`, …) or the producer's (`Promise`, `Future`).
        public let name: String
        /// The file, as `#fileID` gives it (`Module/File.swift`).
        public let file: String
        /// The line.
        public let line: UInt

        /// `name at file:line`.
        public var description: String { "\(name) at \(file):\(line)" }
    }

    /// The steps, from the producer to the future the trace was read from.
    public let steps: [Step]
    /// `false` when the first step's failure came from a future created without tracing.
    public let isComplete: Bool

    /// The steps joined by arrows, one line.
    public var description: String {
        (isComplete ? "" : "… → ") + steps.map(\.description).joined(separator: " → ")
    }
}

extension FuturesDiagnostics {
    /// Whether failure tracing is on for the whole process; `false` by default.
    ///
    /// While on, every future created by a ``Promise``, ``Future/init(file:line:resolver:)`` or a
    /// combinator records its call site in a side table (released with the future), so that a failure
    /// can tell its ``Future/failureTrace``. Turning it off stops recording; traces already recorded stay.
    /// For one task (and its child tasks) only, use ``withFailureTracing(_:)`` instead.
    ///
    /// Cost: while tracing is off everywhere, each combinator pays one relaxed atomic load. While on, a
    /// traced future costs a node allocation and a side-table entry.
    public static var failureTracing: Bool {
        get { FailureTracing.processSwitch.load(ordering: .relaxed) }
        set {
            let (exchanged, _) = FailureTracing.processSwitch.compareExchange(
                expected: !newValue, desired: newValue, ordering: .relaxed)
            guard exchanged else { return }
            if newValue {
                FailureTracing.gate.add(1, ordering: .relaxed)
            } else {
                FailureTracing.gate.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// Runs `operation` with failure tracing on for the current task (and the child tasks it creates), on
    /// the calling thread; returns what it returns and rethrows what it throws.
    ///
    /// Futures created inside `operation` — by this task, not by other tasks or threads — record their
    /// call sites (see ``FailureTrace``). Callbacks scheduled by them run later, on their contexts, with
    /// whatever tracing setting those have; a trace recorded stays readable after the scope ends.
    public static func withFailureTracing<R>(_ operation: () throws -> R) rethrows -> R {
        FailureTracing.gate.add(1, ordering: .relaxed)
        defer { FailureTracing.gate.subtract(1, ordering: .relaxed) }
        return try FailureTracing.$inTask.withValue(true, operation: operation)
    }

    /// The async form of ``withFailureTracing(_:)``: `operation` runs in the current task, on
    /// `isolation`, with failure tracing on for it and its child tasks.
    public static func withFailureTracing<R>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> R
    ) async rethrows -> R {
        FailureTracing.gate.add(1, ordering: .relaxed)
        defer { FailureTracing.gate.subtract(1, ordering: .relaxed) }
        return try await FailureTracing.$inTask.withValue(true, operation: operation, isolation: isolation)
    }
}

extension Future {
    /// The chain of call sites this future's failure went through, when this future failed and failure
    /// tracing was on when it was created; `nil` otherwise (pending, succeeded, or untraced). See
    /// ``FailureTrace``.
    ///
    /// Reading it does not count as observing the failure (see ``FuturesDiagnostics/unobservedFailures``).
    public var failureTrace: FailureTrace? {
        let hasFailed = lock.withLock { failed }
        guard hasFailed, let node = FailureTracing.node(of: self) else { return nil }
        return node.trace()
    }
}

/// The switches and hooks of failure tracing.
///
/// `gate` is the one word every hook reads first, 64 bits on every platform (also where `Int` has 32):
/// its low 32 bits count the process switch (0 or 1), the pending-futures switch (0 or 1,
/// ``FuturesDiagnostics/tracksPendingFutures``, whose registry records the same nodes) and the active task
/// scopes, its high 32 bits the live trace nodes. Creating a future records a node only when the low half
/// is non-zero and then a switch or the task-local says so; linking a future to the one it follows
/// (`completeWith`) is needed only while nodes live.
@usableFromInline
enum FailureTracing {
    @usableFromInline static let gate = Atomic<UInt64>(0)
    static let processSwitch = Atomic<Bool>(false)
    @TaskLocal static var inTask = false

    /// The low half of ``gate``: the switches and task scopes.
    @inlinable static var switchMask: UInt64 { 0xFFFF_FFFF }
    /// One live trace node in ``gate``'s high half.
    static var nodeUnit: UInt64 { 1 << 32 }

    /// Whether a future created now should record its call site. One relaxed load when tracing is off.
    @inlinable
    static var isOn: Bool {
        gate.load(ordering: .relaxed) & switchMask != 0 && isOnHere()
    }

    /// Whether any trace node lives (or a switch is on). One relaxed load.
    @inlinable
    static var isLive: Bool { gate.load(ordering: .relaxed) != 0 }

    @usableFromInline
    @inline(never)
    static func isOnHere() -> Bool {
        processSwitch.load(ordering: .relaxed) || inTask || PendingFutureRegistry.isTracking
    }

    /// The node of `future`, if it has one.
    static func node<T, E>(of future: Future<T, E>) -> TraceNode? {
        FutureExtras.entry(of: future)?.trace as? TraceNode
    }

    /// Records a producer's call site on its fresh `future`.
    @usableFromInline
    @inline(never)
    static func produced<T, E>(_ future: Future<T, E>, name: StaticString, site: CallSite) {
        let node = TraceNode(name: name, site: site, upstream: nil)
        record(future, node, .producer)
    }

    /// Stores `node` in the side-table entry of `future`, with its pending-futures token when tracked.
    static func record<T, E>(_ future: Future<T, E>, _ node: TraceNode, _ kind: PendingFutureRegistry.Kind) {
        let token = PendingFutureRegistry.isTracking ? PendingFutureRegistry.track(future, node: node, kind: kind) : nil
        FutureExtras.update(future) {
            $0.trace = node
            if let token { $0.pending = token }
        }
    }

    /// Records that `future` was derived from `source` by step `name` at `file`:`line`, and notes (when
    /// `source` completes, before any callback runs) whether `source` failed.
    @usableFromInline
    @inline(never)
    static func derived<S, SE, T, E>(
        _ future: Future<T, E>, from source: Future<S, SE>, name: StaticString, file: StaticString, line: UInt
    ) {
        let traced = TraceNode(name: name, site: CallSite(file: file, line: line), upstream: node(of: source))
        record(future, traced, .derived)
        source.observe(immediateExecutionContext) { result in
            if case .failure = result { traced.noteUpstreamFailed() }
        }
    }

    /// Records that `future` gathers several inputs (`sequence`, `traverse`, `zip`) by step `name` at
    /// `file`:`line`. Each input is then linked with ``gatheredInput(_:into:)``; the trace of a failure
    /// continues the trace of the input whose failure arrived first.
    @usableFromInline
    @inline(never)
    static func gathered<T, E>(_ future: Future<T, E>, name: StaticString, file: StaticString, line: UInt)
        -> TraceNode
    {
        let traced = TraceNode(name: name, site: CallSite(file: file, line: line), upstream: nil)
        record(future, traced, .gathered)
        return traced
    }

    /// Links one input of a gathering step: when `input` fails first, its trace comes before the step.
    @usableFromInline
    @inline(never)
    static func gatheredInput<S, SE>(_ input: Future<S, SE>, into traced: TraceNode) {
        let upstream = node(of: input)
        if PendingFutureRegistry.isTracking { PendingFutureRegistry.addInput(upstream, to: traced) }
        input.observe(immediateExecutionContext) { result in
            if case .failure = result { traced.followFirstFailure(upstream) }
        }
    }

    /// Records that `future` takes its result from `inner` (`flatMap`'s or `recoverWith`'s future, or
    /// `completeWith`'s argument), when `future` is traced.
    @usableFromInline
    @inline(never)
    static func follows<T, E, S, SE>(_ future: Future<T, E>, _ inner: Future<S, SE>) {
        guard let traced = node(of: future) else { return }
        traced.follow(node(of: inner))
    }

    /// Records that `future` takes its result from a future whose node is `inner` (`nil`: untraced), when
    /// `future` is traced; for a step that keeps only the node of the future it follows (`retry` between
    /// attempts).
    static func follows<T, E>(_ future: Future<T, E>, node inner: TraceNode?) {
        guard let traced = node(of: future) else { return }
        traced.follow(inner)
    }

    /// Records that `future`'s failure starts at its own step after all (`retry` failing with its own
    /// cancellation error while it waited for an attempt), when `future` is traced.
    static func startsHere<T, E>(_ future: Future<T, E>) {
        node(of: future)?.unfollow()
    }
}

/// One traced future: its step, the node of the future it was derived from, and — once known — whether
/// that one failed and which future it took its result from.
@usableFromInline
final class TraceNode: Sendable {
    struct Links {
        var upstream: TraceNode?
        var upstreamFailed = false
        var followsInner = false
        var inner: TraceNode?
    }

    let name: StaticString
    let site: CallSite
    private let links: LockedBox<Links>

    init(name: StaticString, site: CallSite, upstream: TraceNode?) {
        self.name = name
        self.site = site
        self.links = LockedBox(Links(upstream: upstream))
        FailureTracing.gate.add(FailureTracing.nodeUnit, ordering: .relaxed)
    }

    deinit {
        FailureTracing.gate.subtract(FailureTracing.nodeUnit, ordering: .relaxed)
        // Unlinks a long chain iteratively: releasing it recursively could exhaust the stack.
        var next = links.withValue { links in
            defer { links.upstream = nil }
            return links.upstream
        }
        while var node = next {
            next = nil
            guard isKnownUniquelyReferenced(&node) else { break }
            next = node.links.withValue { links in
                defer { links.upstream = nil }
                return links.upstream
            }
        }
    }

    /// The links that say what this node's future waits for (for the pending-futures registry).
    var awaitedLinks: Links { links.value }

    func noteUpstreamFailed() {
        links.withValue { $0.upstreamFailed = true }
    }

    /// A gathering step's first failed input (later failures of other inputs do not change it).
    func followFirstFailure(_ input: TraceNode?) {
        links.withValue {
            guard !$0.followsInner else { return }
            $0.followsInner = true
            $0.inner = input
        }
    }

    func follow(_ inner: TraceNode?) {
        links.withValue {
            $0.followsInner = true
            $0.inner = inner
        }
    }

    /// Undoes ``follow(_:)``: the future's failure is its own step's, not the inner future's.
    func unfollow() {
        links.withValue {
            $0.followsInner = false
            $0.inner = nil
        }
    }

    var step: FailureTrace.Step {
        let name = "\(name)"
        return FailureTrace.Step(
            name: String(name.prefix { $0 != "(" }), file: site.file, line: site.line)
    }

    /// The trace of this node's failed future, built without recursion.
    func trace() -> FailureTrace {
        enum Work {
            case expand(TraceNode)
            case emit(TraceNode)
            case untraced
        }
        var steps: [FailureTrace.Step] = []
        var isComplete = true
        var work: [Work] = [.expand(self)]
        while let item = work.popLast() {
            switch item {
            case .emit(let node):
                steps.append(node.step)
            case .untraced:
                if steps.isEmpty { isComplete = false }
            case .expand(let node):
                let links = node.links.value
                work.append(.emit(node))
                // Pushed in reverse: the upstream's steps come first, then the inner future's.
                if links.followsInner { work.append(links.inner.map { .expand($0) } ?? .untraced) }
                if links.upstreamFailed { work.append(links.upstream.map { .expand($0) } ?? .untraced) }
            }
        }
        return FailureTrace(steps: steps, isComplete: isComplete)
    }
}
