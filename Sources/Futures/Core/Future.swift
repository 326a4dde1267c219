import Dispatch
import Synchronization

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
/// Every method that takes a closure also takes an ``ExecutionContext``, first and unlabelled
/// (`future.map(queue.context) { … }`, `future.recover(queue.context) { … }`; `andThen`, `recover` and
/// `recoverWith` also accept BrightFutures' `context:` label). Omitted, it is ``defaultContext()``: the main queue when the method is called on the main thread, else a global
/// queue. Each callback runs exactly once, on its context. Callbacks of one future on the same serial
/// context (a serial queue, the main queue) run in registration order; a callback never waits for a
/// callback on another context. Callbacks on the immediate context registered before completion run on
/// the completing thread in registration order; one registered after completion runs at once on the
/// registering thread. Nothing of yours runs under a lock of the library, and every synchronous run goes
/// through a per-thread trampoline, so chains and recursions of any depth use bounded stack. See
/// GUARANTEES.md.
///
/// ## Cancellation
/// ``requestCancellation()`` asks the producer to stop. A request on a derived future (`map`, `flatMap`,
/// `recover`, `zip`, `sequence`, …) travels upstream; a source is asked only when every consumer that
/// registered on it while it was pending has asked (a plain callback or waiter never asks), so shared work
/// is never cancelled under someone who still waits for it. See <doc:Cancellation>.
///
/// ## Memory
/// A future does not retain the futures it was derived from, and a completed future holds nothing
/// but its result: callbacks are released as soon as they have run. A pending future that is dropped
/// releases its callbacks iteratively, so dropping a chain of any length is stack-safe.
///
/// ## Writing
/// The write end of a future is a ``Promise``, or the `complete` closure of ``init(file:line:resolver:)``.
///
/// ## Subclasses
/// `Future` is `open` for one purpose: a face of this package whose original's type is a class of its own
/// (BoltsSwift's `Task`) makes that class a subclass, so that its object *is* the cell (one allocation,
/// the core's guarantees as they are). Its only designated initializer is `package`, so no code outside
/// this package can subclass it, and no member of it can be overridden except ``description``.
@dynamicMemberLookup
open class Future<T: Sendable, E: Error>: @unchecked Sendable {
    // `@unchecked Sendable` is sound because all mutable state (`state` and the fields below it) is
    // written only inside the cell's critical region (``withCellLocked(_:)``, the one place that takes
    // `lock`), and read there too, with two exceptions.
    // The flag word is an atomic: its completed bit is read without the lock (`isKnownCompleted`,
    // `ifCompleted`, the spin of `forced()`). And a settled success (completed, no hand-out in
    // progress) is read without the lock: one acquiring load of the flag word, then the words (*Settled
    // futures* in Future+Storage.swift). The words are written before the releasing store that makes
    // the future settled and never again until `deinit`, so a reader that sees the settled bits sees the
    // value. A settled failure is read under the lock, which marks it observed. The lock's
    // acquire/release ordering publishes everything else to the next holder.
    //
    // Field order matters for size: the state's 17 bytes first, then the two-byte flags and the lock,
    // packed behind them: 16 (object header) + 17 + 1 (padding) + 2 + 4 = 40 bytes, a 48-byte malloc
    // chunk.

    // Guarded by `lock`: the storage of `state` (see Future+Storage.swift). It holds the pending list, the
    // result's value or error, or the late callbacks, laid out by hand so that `deinit` destroys it
    // without the state enum's generic metadata. Exclusivity is proven by the lock, so the runtime check
    // is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    final var words: StateWords

    // Written only under `lock`: the flags below, one bit each (`Flags`), and the storage's tag bits
    // (`Representation`), through ``flags``. An atomic so that a settled future can be read without the
    // lock (see *Settled futures* in Future+Storage.swift): every store releases (a plain move on
    // x86-64), and a reader without the lock loads it acquiring.
    @usableFromInline
    let flagWord: Atomic<UInt16>

    /// The flags (see ``flagWord``). Read and written under `lock`.
    @inlinable
    final var flags: UInt16 {
        @inline(__always) get { flagWord.load(ordering: .relaxed) }
        @inline(__always) set {
            assert(Self.flagsAreConsistent(newValue), "Futures: inconsistent flag word \(newValue)")
            flagWord.store(newValue, ordering: .releasing)
        }
    }

    /// The invariants of the flag word, checked on every write in debug builds: a failure and a hand-out
    /// in progress exist only once the future is completed.
    @inlinable
    static func flagsAreConsistent(_ bits: UInt16) -> Bool {
        let completed = bits & Flags.completed != 0
        return completed || bits & (Flags.failed | Flags.handingOut) == 0
    }

    // After the flags, so the 4-byte lock needs no padding of its own. Taken only by ``withCellLocked(_:)``.
    @usableFromInline
    let lock: ParkingLock

    /// The cell's one critical region: runs `body` under the lock and returns what it returns.
    ///
    /// `body` only reads and writes the cell's state and decides; the caller acts on what it returns —
    /// runs callbacks and handlers, hands work to contexts, releases what was taken out of the state —
    /// after the region, so nothing of the user's runs under the lock (GUARANTEES.md G7). In debug builds
    /// the whole cell is checked (``_checkInvariants()``) at the end of every region, before the lock is
    /// released.
    @inlinable
    @inline(__always)
    final func withCellLocked<R>(_ body: () -> R) -> R {
        lock.withLock {
            let outcome = body()
            #if DEBUG
                _checkInvariants()
            #endif
            return outcome
        }
    }

    /// The bits of ``flags``.
    @usableFromInline
    enum Flags {
        /// Cancellation was requested while the future was pending.
        @usableFromInline static var cancellationRequested: UInt16 { 1 }
        /// Mirrors `state.result != nil`, for cheap checks in unspecialised code (`deinit`).
        @usableFromInline static var completed: UInt16 { 2 }
        /// The completer is still handing callbacks out to other contexts; callbacks for other contexts
        /// registered meanwhile queue behind them (registration order per serial context).
        @usableFromInline static var handingOut: UInt16 { 4 }
        /// A cancellation handler was registered at some point, so requests from derived futures are worth
        /// forwarding here (see `linkCancellation(to:after:asking:)`).
        @usableFromInline static var acceptsCancellation: UInt16 { 8 }
        /// The pending list starts with a ``ConsumerTally``, which counts the consumers from then on.
        @usableFromInline static var tallied: UInt16 { 16 }
        /// Completed with a failure, for `deinit` (unspecialised), which must not need the state's metadata.
        @usableFromInline static var failed: UInt16 { 32 }
        /// Someone looked at the result — a callback, a waiter (`get()`, `forced()`), a derived future,
        /// `result`/`value`/`error`. A failed future dropped without it is reported (see
        /// ``FuturesDiagnostics/unobservedFailures``).
        @usableFromInline static var observed: UInt16 { 64 }
        /// The future has an entry in the `FutureExtras` side table (progress, a failure trace, where its
        /// failed promise was created), which `deinit` removes.
        @usableFromInline static var hasExtras: UInt16 { 128 }
    }

    @inlinable
    final func flag(_ bit: UInt16) -> Bool { flags & bit != 0 }

    @inlinable
    final func setFlag(_ bit: UInt16, _ value: Bool) {
        if value { flags |= bit } else { flags &= ~bit }
    }

    // Guarded by `lock`: cancellation was requested while the future was pending.
    @inlinable
    final var cancellationRequested: Bool {
        get { flag(Flags.cancellationRequested) }
        set { setFlag(Flags.cancellationRequested, newValue) }
    }

    // Guarded by `lock`: mirrors `state.result != nil`. A plain bit, so that unspecialised code
    // (deinitializers of generic classes) can test completion without instantiating the metadata of
    // the generic state enum.
    @inlinable
    final var completed: Bool {
        get { flag(Flags.completed) }
        set { setFlag(Flags.completed, newValue) }
    }

    // Guarded by `lock`: the completer is still handing callbacks out to other contexts.
    @inlinable
    final var handingOut: Bool {
        get { flag(Flags.handingOut) }
        set { setFlag(Flags.handingOut, newValue) }
    }

    // Guarded by `lock`: a cancellation handler was registered at some point.
    @inlinable
    final var acceptsCancellation: Bool {
        get { flag(Flags.acceptsCancellation) }
        set { setFlag(Flags.acceptsCancellation, newValue) }
    }

    // Guarded by `lock`: the pending list holds a ``ConsumerTally`` (see *Cancellation* in ARCHITECTURE.md).
    // Until it does, the consumers are the list's live consumer entries, counted when first needed.
    @inlinable
    final var tallied: Bool {
        get { flag(Flags.tallied) }
        set { setFlag(Flags.tallied, newValue) }
    }

    // Guarded by `lock`: completed with a failure (see `Flags.failed`).
    @inlinable
    final var failed: Bool {
        get { flag(Flags.failed) }
        set { setFlag(Flags.failed, newValue) }
    }

    // Guarded by `lock`: someone looked at the result (see `Flags.observed`).
    @inlinable
    final var observed: Bool {
        get { flag(Flags.observed) }
        set { setFlag(Flags.observed, newValue) }
    }

    /// Creates a cell, pending when `result` is `nil`, else completed with it: the one designated
    /// initializer. `package`, so that only the modules of this package can subclass `Future` (a face's own
    /// cell class, such as BoltsSwift's `Task`, whose initializers call it); everyone else uses ``init()``
    /// or ``init(result:)``.
    @inlinable
    package init(cell result: Result<T, E>?) {
        self.words = (0, 0, 0)
        self.lock = ParkingLock()
        switch result {
        case nil: self.flagWord = Atomic(0)
        case .failure?: self.flagWord = Atomic(Flags.completed | Flags.failed)
        case .success?: self.flagWord = Atomic(Flags.completed)
        }
        initializeState(FutureState(result: consume result))
    }

    /// Creates a pending future that never completes by itself.
    ///
    /// Useful as a placeholder; to complete a future later, create a ``Promise`` instead.
    @inlinable
    public convenience init() {
        self.init(cell: nil)
    }

    /// Creates a future that is already completed with `result`.
    @inlinable
    public convenience init(result: Result<T, E>) {
        self.init(cell: result)
    }

    deinit {
        // The common case first, decided by one load: a success of a trivial type, with no side-table
        // entry, has nothing to release or report.
        let bits = flags
        let nothingToDo = Flags.completed | Representation.trivialPayload
        if bits & (Flags.completed | Flags.failed | Flags.hasExtras | Representation.trivialPayload) == nothingToDo {
            return
        }
        // A future dropped while pending hands its callbacks to the trampoline, which releases them in a
        // loop: a dropped chain of any length is freed without recursion. Completed futures skip this.
        if !completed {
            releasePendingEntries()
        } else if failed {
            failedFutureDeinit()
        }
        if flag(Flags.hasExtras) {
            releaseExtras()
        }
        destroyState()
    }

    /// Removes the side-table entry of a future being deallocated (see `FutureExtras`) and releases it
    /// after the table's lock. Kept out of `deinit`: futures without extras pay one bit test.
    @usableFromInline
    @inline(never)
    final func releaseExtras() {
        _ = FutureExtras.take(self)
    }

    /// Takes the entries of a future deallocated while pending, and releases them iteratively.
    @usableFromInline
    @inline(never)
    final func releasePendingEntries() {
        let list = takePendingListForDeinit()
        // Consumed: the release loop must hold the only reference, or the release would happen here,
        // recursively, when this frame ends.
        if !list.isEmpty { Trampoline.release(consume list) }
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
        if FailureTracing.isOn { FailureTracing.produced(self, name: "Future", site: CallSite(file: file, line: line)) }
        resolver { [self] result in
            if !self.complete(result) {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(file)", line: line))
            } else if case .failure = result {
                FuturesDiagnostics.recordFailureOrigin(self, site: CallSite(file: file, line: line))
            }
        }
    }

    /// Creates a pending future and lets `resolver` complete it: ``init(file:line:resolver:)`` without the
    /// call-site parameters.
    ///
    /// Generic code over BrightFutures' `AsyncType` (`Self { complete in … }`) reaches a future's
    /// initializer through this one; it is `required` so that the class and every subclass witness that
    /// requirement. `resolver` runs synchronously, on the calling thread; `complete` may be called from any
    /// thread, the first call wins. A second call is reported as
    /// ``FuturesDiagnostic/futureCompletedTwice(file:line:)`` with this initializer's own location (use
    /// ``init(file:line:resolver:)``, which the unlabelled `Future { … }` picks, to report the caller's).
    @_disfavoredOverload
    public required convenience init(resolver: (_ complete: @escaping @Sendable (Result<T, E>) -> Void) -> Void) {
        self.init(file: #fileID, line: #line, resolver: resolver)
    }

    /// Creates a future that completes with the same result as `other`, on the thread that completes
    /// `other` (at once when `other` has completed).
    ///
    /// The future is a step named `Future` at the caller's `file` and `line` (failure traces, the
    /// pending-futures report), and one consumer of `other`: a cancellation request on it is passed on
    /// to `other` as that consumer's ask.
    ///
    /// - Parameters:
    ///   - other: The future whose result this one takes.
    ///   - file: The caller's file, where the step is recorded (leave the default).
    ///   - line: The caller's line, where the step is recorded (leave the default).
    public convenience init(other: Future<T, E>, file: StaticString = #fileID, line: UInt = #line) {
        self.init()
        depend(on: other, link: .step("Future", file: file, line: line)) { [self] result in self.complete(result) }
    }

    // MARK: - State

    /// The result, or `nil` while pending (what ``FutureOutcome/result`` reads).
    @inlinable
    public final var _outcome: Result<T, E>? {
        if let value = settledValueWithoutLock() { return .success(value) }
        return withCellLocked {
            observed = true
            return withState { $0.result }
        }
    }

    /// The value if completed successfully, else `nil`.
    @inlinable
    public final var value: T? {
        // A settled success without building the `Result` (a read costs what `_outcome`'s fast path does).
        if let value = settledValueWithoutLock() { return value }
        if case .success(let value) = _outcome { return value }
        return nil
    }

    /// `true` once the future has a result.
    @inlinable
    public final var isCompleted: Bool {
        withCellLocked { completed }
    }

    /// `true` if the completed bit is seen set without taking the lock: then the future is completed for
    /// good. `false` may be stale while another thread completes it right now; a caller that must know
    /// asks ``isCompleted`` next. One acquiring load (see *Settled futures* in Future+Storage.swift).
    @inlinable
    package final var isKnownCompleted: Bool {
        flagWord.load(ordering: .acquiring) & Flags.completed != 0
    }

    /// `true` if completed successfully.
    @inlinable
    public final var isSuccess: Bool { value != nil }

    /// `true` if completed with a failure.
    @inlinable
    public final var isFailure: Bool {
        if case .failure = _outcome { return true }
        return false
    }

    /// The type and the current result, e.g. `Future<Int, Never>(Optional(Swift.Result<Int, Never>.success(1)))`
    /// or `Future<Int, Never>(nil)` while pending.
    ///
    /// (BrightFutures printed a future as its base class, `Async<Result<Int, Never>>(…)`.)
    ///
    /// Declared in the class and `open` so that a face's own subclass (BoltsSwift's `Task`) prints as its
    /// original did; no code outside this package can subclass `Future`.
    open var description: String {
        "Future<\(T.self), \(E.self)>(\(String(describing: result)))"
    }

    // MARK: - Core operations (internal; every face of the library is built on these)

    /// Completes the future; returns `false` (and changes nothing) if it was already completed.
    ///
    /// Wakes the waiters, hands the callbacks for other contexts to their contexts in registration order,
    /// then runs the immediate callbacks in registration order on the calling thread, through the
    /// trampoline.
    @inlinable
    @discardableResult
    package final func complete(_ result: Result<T, E>) -> Bool {
        let action = withCellLocked(reading: result, completeEvent)
        switch consume action {
        case .alreadyCompleted:
            return false
        case .completed:
            return true
        case .run(let list, let handsOut):
            // One local function, run in place; made an escaping closure (an allocation, which in generic
            // code the optimiser did not specialise also holds the generic context) only when queued.
            func runList() { runCompletion(list, result, handsOut: handsOut) }
            if Trampoline.runInline(runList) == nil { Trampoline.run(runList) { $0() } }
            return true
        }
    }

    /// Registers `body` to run with the result on `context`.
    ///
    /// Pending: stored, run at completion. Completed: run now (immediate context, through the trampoline)
    /// or handed to `context` now.
    ///
    /// Returns what the registration saw under the lock it takes anyway (``Registration``): whether the
    /// future has side data (`FutureExtras`: progress, …), so combinators learn for free whether an input
    /// carries progress, and whether a cancellation request is worth forwarding to it, so
    /// ``linkCancellation(to:after:asking:)`` needs no second lock.
    @inlinable
    @discardableResult
    final func whenComplete(
        _ context: ExecutionContext, _ body: consuming @escaping @Sendable (Result<T, E>) -> Void
    ) -> Registration {
        // An invalidation token's context: the token tracks the registration and removes it (releasing
        // its captures) when it is invalidated.
        if case .gated = context.kind, let registration = whenCompleteGatedTracked(context, body) {
            return registration
        }
        #if ServiceContext
            // The trace context travels with the callback (see `ContextTravel`).
            let body = ContextTravel.isActive ? ContextTravel.bound(body) : body
        #endif
        // Built before locking (a scheduled callback allocates its box), then moved into the state: it
        // comes back in `.runNow` when it must run now.
        var entry: Callback<T, E>? =
            context.isImmediate ? .inline(body) : .scheduled(ScheduledCallback(context: context, body: body))
        let (action, registration) = withCellLocked(&entry, registerEvent)
        if case .runNow(let result, let callback) = consume action {
            run(callback, result)
        }
        return registration
    }

    /// What a registration saw of the future, read under the lock it held (see ``whenComplete(_:_:)``).
    @usableFromInline
    @frozen
    struct Registration {
        /// The future has side data (`FutureExtras`: progress, …).
        @usableFromInline let hasExtras: Bool
        /// The future was pending and accepted cancellation: a consumer's request is worth forwarding.
        @usableFromInline let acceptsCancellation: Bool
        /// The registration's entry, when it can be taken back (a `CancelToken`'s or an
        /// `InvalidationToken`'s registration): this consumer asks through it (``consumerAsks(through:)``),
        /// so that taking it back takes the ask back too, and an ask after it was taken back does nothing.
        /// `nil` for a registration that stays until completion, whose ask is counted by number.
        @usableFromInline let entry: RemovableEntry<T, E>?

        @inlinable
        init(hasExtras: Bool, acceptsCancellation: Bool, entry: RemovableEntry<T, E>? = nil) {
            self.hasExtras = hasExtras
            self.acceptsCancellation = acceptsCancellation
            self.entry = entry
        }
    }

    /// The facts of a ``Registration``. Under the lock.
    @inlinable
    @inline(__always)
    final func registrationFacts() -> Registration {
        Registration(
            hasExtras: flag(Flags.hasExtras),
            acceptsCancellation: flag(Flags.acceptsCancellation) && !completed
        )
    }

    /// The facts of a ``Registration``, read under the future's lock (for paths that do not lock anyway).
    @usableFromInline
    final func registrationLocked() -> Registration {
        withCellLocked { registrationFacts() }
    }

    /// The fast path of combinators on the immediate context: if the future is completed, runs `body`
    /// with its result right here — through the trampoline, like every synchronous run — and returns what
    /// it returns. Returns `nil` without running `body` if the future is pending, or if this thread's
    /// trampoline has no frame left (the caller then registers a callback, which the trampoline queues).
    ///
    /// Takes no lock for a pending future or a settled success (see *Settled futures* in
    /// Future+Storage.swift). A completed bit read as clear may be stale while another thread completes
    /// the future right now; the caller's registration, which locks, then finds the result and runs its
    /// callback at once, through the trampoline as well. On the completing thread, and after anything
    /// that ordered the completion before this call (a wait, a callback, an `await`), it is never stale.
    @inlinable
    package final func ifCompleted<R>(_ body: (Result<T, E>) -> R) -> R? {
        let bits = flagWord.load(ordering: .acquiring)
        guard bits & Flags.completed != 0 else { return nil }
        let result: Result<T, E>
        if Self.isSettledSuccess(bits) {
            result = .success(settledPayload(as: T.self))
        } else {
            let locked = withCellLocked {
                observed = true
                return withState { $0.result }
            }
            guard let locked else { return nil }  // never: the completed bit is final
            result = locked
        }
        guard !FailureTracing.isOn else { return nil }  // traced futures come from `derive`
        return Trampoline.runInline { body(result) }
    }

    /// Calls `wakeUp` as soon as the future completes (at once if it has), ahead of the callbacks.
    @inlinable
    final func onCompletionWakeUp(_ wakeUp: @escaping @Sendable (Result<T, E>) -> Void) {
        let action = withCellLocked {
            let action = withState { $0.register(.wakeUp(wakeUp), handingOut: false) }
            observed = true
            if tallied, !completed { countConsumer() }
            return action
        }
        if case .runNow(let result, _) = action { wakeUp(result) }
    }

    /// Calls `observer` when the future completes (at once if it has), with the wake-ups. For the
    /// library's own bookkeeping: unlike a callback or waiter it is not a consumer, so it never holds back
    /// a cancellation request travelling upstream.
    @usableFromInline
    final func onCompletionObserved(_ observer: @escaping @Sendable (Result<T, E>) -> Void) {
        let action = withCellLocked { withState { $0.register(.observer(observer), handingOut: false) } }
        if case .runNow(let result, _) = action { observer(result) }
    }

    /// Registers a removable wake-up, callback or cancellation handler; runs it at once when it is due
    /// already: a wake-up or callback on a completed future, a handler after a cancellation request.
    ///
    /// A stored consumer is one consumer of this future, whose ask is recorded on its entry
    /// (``consumerAsks(through:)``). An entry removed before this call (``removeEntry(_:leaving:)``) is
    /// not stored; one that left does so now, as if it had been registered and then left.
    ///
    /// Returns `true` if the entry was stored (take it back with ``removeEntry(_:leaving:)``), `false` if
    /// it ran, was dropped (a handler on a completed future) or was withdrawn.
    @usableFromInline
    @discardableResult
    final func addRemovable(_ entry: RemovableEntry<T, E>) -> Bool {
        // A consumer that left before it was registered may need a tally to be counted: allocated outside
        // the lock, then the registration is tried again (rare: a waiter whose task was cancelled meanwhile).
        var spare: ConsumerTally?
        var registered: (FutureState<T, E>.RemovableRegistration, handlers: [@Sendable () -> Void])?
        while registered == nil {
            registered = withCellLocked {
                if entry.phase == .withdrawnLeaving, spare == nil, leaveNeedsTallyLocked() { return nil }
                let (requested, handing) = (cancellationRequested, handingOut)
                let action = withState {
                    $0.registerRemovable(entry, alreadyRequested: requested, handingOut: handing)
                }
                var handlers: [@Sendable () -> Void] = []
                switch action {
                case .stored:
                    if !completed {
                        if !entry.isConsumer {
                            acceptsCancellation = true
                        } else if tallied {
                            countConsumer()
                        }
                    }
                case .withdrawn(let leaving):
                    if leaving, entry.isConsumer {
                        handlers = consumerLeavesLocked(registered: false, asked: false, &spare)
                    }
                case .completed, .cancellationRequested:
                    break
                }
                if entry.isConsumer { observed = true }
                return (action, handlers)
            }
            if registered == nil { spare = ConsumerTally() }
        }
        let (action, handlers) = registered!
        switch action {
        case .stored:
            return true
        case .completed(let result):
            if let kind = entry.kind, entry.isConsumer {
                entry.kind = nil
                run(kind, result)
            }
            return false
        case .cancellationRequested:
            if case .cancellation(let handler)? = entry.kind {
                entry.kind = nil
                Self.runCancellationHandlers([handler])
            }
            return false
        case .withdrawn:
            entry.kind = nil
            Self.runCancellationHandlers(handlers)
            return false
        }
    }

    /// Takes back an entry stored by ``addRemovable(_:)`` in O(1), releasing what it held (after
    /// unlocking); `false` if it already ran, is running, or was dropped at completion.
    ///
    /// A consumer's registration and its ask go together: removing a consumer that asked takes its ask
    /// back with it, and removing one that had not asked may leave only consumers that asked: the request
    /// then goes upstream.
    ///
    /// With `leaving`, the consumer asks as it goes (`get(onTaskCancellation: .leave)`): it stays counted
    /// as a consumer that asked, so the request goes upstream once every other consumer has asked or was
    /// taken back.
    ///
    /// Called before the entry was registered — on a pending or a completed future — it marks the entry
    /// withdrawn and returns `true`: ``addRemovable(_:)`` then stores (and runs) nothing, or, for an entry
    /// that left, counts its leave at once.
    @usableFromInline
    @discardableResult
    final func removeEntry(_ entry: RemovableEntry<T, E>, leaving: Bool = false) -> Bool {
        // A leave may need a tally (it stays counted); allocated before locking. Leaving is rare.
        var spare: ConsumerTally? = leaving ? ConsumerTally() : nil
        let (removal, handlers) = withCellLocked { () -> (FutureState<T, E>.Removal, [@Sendable () -> Void]) in
            let removal = withState { $0.remove(entry, leaving: leaving) }
            guard case .removed(_, let asked) = removal, entry.isConsumer, !cancellationRequested else {
                return (removal, [])
            }
            if leaving {
                return (removal, consumerLeavesLocked(registered: true, asked: asked, &spare))
            }
            return (removal, consumerRemovedLocked(asked: asked))
        }
        // What the entry held and the unused tally are released here, after the region.
        _ = consume spare
        switch consume removal {
        case .notStored:
            return false
        case .withdrawn:
            return true
        case .removed(let taken, _):
            _ = consume taken
            Self.runCancellationHandlers(handlers)
            return true
        }
    }

    /// A consumer was taken back without leaving: it no longer counts, nor does its ask if it made one.
    /// When every consumer left has asked (and at least one ask stands), makes the request. Returns the
    /// handlers to run after unlocking. Under the lock.
    final func consumerRemovedLocked(asked: Bool) -> [@Sendable () -> Void] {
        guard !completed, !cancellationRequested else { return [] }
        // Without a tally nobody has asked yet (a lone ask makes the request at once): nothing to decide.
        guard tallied, let tally = withState({ $0.consumerTally }) else { return [] }
        tally.consumers &-= 1
        if asked { tally.asks &-= 1 }
        guard tally.asks > 0, tally.asks >= tally.consumers else { return [] }
        return fireLocked()
    }

    /// Whether a consumer leaving now would need a tally that is not there: others still wait and none has
    /// asked yet. Under the lock.
    final func leaveNeedsTallyLocked() -> Bool {
        !completed && !cancellationRequested && !tallied && withState { $0.pendingEntries.liveConsumerCount } > 0
    }

    /// A consumer leaves asking: it keeps counting, as a consumer that asked, after its entry is gone.
    /// Makes the request when every consumer has asked; returns the handlers to run after unlocking. Under
    /// the lock; `spare` must hold a tally when ``leaveNeedsTallyLocked()`` is true.
    ///
    /// - Parameters:
    ///   - registered: The consumer is counted already (`false`: it left before it was registered).
    ///   - asked: Its ask is counted already.
    final func consumerLeavesLocked(
        registered: Bool, asked: Bool, _ spare: inout ConsumerTally?
    ) -> [@Sendable () -> Void] {
        guard !completed, !cancellationRequested else { return [] }
        if tallied, let tally = withState({ $0.consumerTally }) {
            if !registered { tally.consumers &+= 1 }
            if !asked { tally.asks &+= 1 }
            guard tally.asks >= tally.consumers else { return [] }
            return fireLocked()
        }
        // No tally, so nobody has asked: the others still wait unless there are none.
        let others = withState { $0.pendingEntries.liveConsumerCount }
        guard others > 0 else { return fireLocked() }
        guard let tally = spare.take() else {
            preconditionFailure("Futures: a leave that needs a tally came without one")
        }
        tally.consumers = others &+ 1
        tally.asks = 1
        withState { $0.insertTally(tally) }
        tallied = true
        return []
    }

    /// Makes the request: marks it and takes the cancellation handlers out, to run after unlocking. Under
    /// the lock, on a pending future whose cancellation was not requested.
    final func fireLocked() -> [@Sendable () -> Void] {
        cancellationRequested = true
        return withState { $0.takeCancellationHandlers() }
    }

    /// Releases the consumers of a pending future that can never complete (its promise was dropped and
    /// `E` cannot say so): callbacks that would never run are freed with what they captured.
    ///
    /// The released consumers still count as consumers that have not asked for cancellation (G8): a tally
    /// keeps their number. The cancellation handlers stay: a request made later (explicitly, or by every
    /// consumer asking) still runs them.
    final func abandon() {
        let spare = ConsumerTally()  // allocated before locking; used if consumers are released untallied
        let list = withCellLocked { () -> CallbackList<T, E> in
            guard !completed else { return .empty }
            let consumers = withState { $0.pendingEntries.liveConsumerCount }
            let list = withState { $0.takeConsumers() }
            if !tallied, consumers > 0 {
                spare.consumers = consumers
                withState { $0.insertTally(spare) }
                tallied = true
            }
            return list
        }
        if !list.isEmpty { Trampoline.release(consume list) }
    }

    /// Counts a consumer just registered on a pending future whose list holds a tally. Under the lock.
    @usableFromInline
    final func countConsumer() {
        withState({ $0.consumerTally })?.consumers &+= 1
    }

    // MARK: - Running callbacks

    /// Runs a freshly completed future's list: wake-ups, then hand-outs to other contexts in registration
    /// order (and those registered meanwhile), then the immediate callbacks in registration order.
    @inlinable
    final func runCompletion(_ list: CallbackList<T, E>, _ result: Result<T, E>, handsOut: Bool) {
        #if ServiceContext
            // Callbacks registered without a trace context run without the completer's (see `ContextTravel`).
            if ContextTravel.isActive {
                return ContextTravel.withoutInherited { runCompletion(list, result, handsOut: handsOut) }
            }
        #endif
        list.forEach { entry in
            switch entry {
            case .wakeUp(let wakeUp), .observer(let wakeUp): wakeUp(result)
            case .removable(let removable):
                if case .wakeUp(let wakeUp)? = removable.kind { wakeUp(result) }
            case .inline, .scheduled, .cancellation, .tally: break
            }
        }
        if handsOut {
            list.forEach { entry in
                switch entry {
                case .scheduled(let scheduled): scheduled.submit(result)
                case .removable(let removable):
                    if case .callback(let context, let body)? = removable.kind, !context.isImmediate {
                        ScheduledCallback(context: context, body: body).submit(result)
                    }
                case .inline, .wakeUp, .cancellation, .observer, .tally: break
                }
            }
            finishHandingOut(result)
        }
        list.forEach { entry in
            switch entry {
            case .inline(let body): body(result)
            case .removable(let removable):
                if case .callback(let context, let body)? = removable.kind, context.isImmediate { body(result) }
            case .scheduled, .wakeUp, .cancellation, .observer, .tally: break
            }
        }
    }

    /// Hands out the callbacks for other contexts that were registered while the completer was handing
    /// out its list, until none is left; then registrations hand out their callbacks themselves.
    @inlinable
    final func finishHandingOut(_ result: Result<T, E>) {
        while true {
            let late = withCellLocked {
                let late = withState { $0.takeLate() }
                if late == nil { handingOut = false }
                return late
            }
            guard let late else { return }
            late.forEach { entry in
                switch entry {
                case .scheduled(let scheduled): scheduled.submit(result)
                case .removable(let removable):
                    if case .callback(let context, let body)? = removable.kind {
                        ScheduledCallback(context: context, body: body).submit(result)
                    }
                case .inline, .wakeUp, .cancellation, .observer, .tally: break
                }
            }
        }
    }

    /// Runs one callback registered after completion: immediate ones through the trampoline, others
    /// handed to their context.
    @inlinable
    final func run(_ callback: Callback<T, E>, _ result: Result<T, E>) {
        switch callback {
        case .inline(let body):
            func runBody() { body(result) }
            if Trampoline.runInline(runBody) == nil { Trampoline.run(runBody) { $0() } }
        case .scheduled(let scheduled):
            scheduled.submit(result)
        case .wakeUp(let wakeUp), .observer(let wakeUp):
            wakeUp(result)
        case .removable(let entry):
            if let kind = entry.kind {
                entry.kind = nil
                run(kind, result)
            }
        case .cancellation, .tally:
            break
        }
    }

    /// Runs a removable entry's wake-up or callback with `result` (handlers are never run with a result).
    @usableFromInline
    final func run(_ kind: RemovableEntry<T, E>.Kind, _ result: Result<T, E>) {
        switch kind {
        case .wakeUp(let wakeUp):
            wakeUp(result)
        case .callback(let context, let body):
            if context.isImmediate {
                func runBody() { body(result) }
                if Trampoline.runInline(runBody) == nil { Trampoline.run(runBody) { $0() } }
            } else {
                ScheduledCallback(context: context, body: body).submit(result)
            }
        case .cancellation:
            break
        }
    }
}
