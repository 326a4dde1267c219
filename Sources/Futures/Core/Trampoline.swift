internal import CFuturesShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Per-thread bookkeeping that keeps user code off a growing stack: the one entry through which the
/// library runs anything of yours synchronously.
///
/// Completing a future runs its immediate callbacks, which may complete further futures, and so on; a
/// combinator on a completed future runs your closure at once, which may call another combinator, and so
/// on. Every such synchronous call goes through ``run(_:_:)`` or ``runInline(_:)``, which share one
/// depth count per thread: a cascade may nest up to ``maxDepth`` frames (fast: no allocation); deeper
/// work is queued on the thread's trampoline and run in a loop by the outermost frame. Chains and
/// recursions of any length therefore run in bounded stack space.
///
/// The trampoline also releases what dropped pending futures held (``release(_:)``) in a loop, so a long
/// chain that is dropped without completing is freed iteratively, not recursively.
///
/// ## Storage
/// Each thread's ``State`` is a plain struct in memory of its own, found through a C thread-local variable
/// and used through its pointer: no reference counting on the hot path (a retain and a release of a
/// per-thread object were two atomic read-modify-writes per synchronous run, most of the reference-count
/// traffic of a three-`map` chain). A pthread key holds it too, so that the key's destructor frees it when
/// the thread exits.
@usableFromInline
enum Trampoline {
    /// Frames a cascade may nest before further work is queued instead of called.
    @usableFromInline
    static var maxDepth: Int { 48 }

    /// One thread's trampoline. Reached only through that thread's key, so it is confined to the thread:
    /// no two threads ever touch the same one.
    @usableFromInline
    struct State {
        /// How many trampoline frames are active on this thread.
        @usableFromInline var depth = 0
        /// Work queued by frames that would have exceeded ``maxDepth``; run by the outermost frame.
        @usableFromInline var queued: [() -> Void] = []
        /// Index of the next job of ``queued`` to run: jobs before it have started.
        @usableFromInline var head = 0
        /// Depth of ``maxStackDepthExecutionContext`` tasks running inline on this thread.
        var contextDepth = 0
        /// Things to release one after another (see ``release(_:)``), and whether a loop is releasing them.
        var releases: [Any] = []
        var isReleasing = false

        @usableFromInline
        init() {}
    }

    /// The calling thread's trampoline, created on first use and freed when the thread exits. Valid on
    /// this thread only, for as long as the thread runs; its address also identifies the thread.
    ///
    /// Read from a C thread-local variable (a few instructions; a pthread key cost a call to its lazy
    /// initialiser and one to `pthread_getspecific`). Not inlinable: the C target is an implementation
    /// detail of the module.
    @usableFromInline
    static var current: UnsafeMutablePointer<State> {
        guard let raw = cfutures_trampoline_get() else { return makeCurrent() }
        return raw.assumingMemoryBound(to: State.self)
    }

    /// Creates the calling thread's trampoline, stores it in the thread-local slot, and under the thread's
    /// key, whose destructor frees it when the thread exits.
    @usableFromInline
    @inline(never)
    static func makeCurrent() -> UnsafeMutablePointer<State> {
        let fresh = UnsafeMutablePointer<State>.allocate(capacity: 1)
        fresh.initialize(to: State())
        cfutures_trampoline_set(fresh)
        pthread_setspecific(trampolineKey, fresh)
        return fresh
    }

    /// Runs `job(state)` now if the stack allows, otherwise queues it to run from the outermost frame;
    /// returns `true` if it ran now.
    ///
    /// The job is written once and receives everything it works on as `state`, so the inline run and the
    /// queued run are the same code: a call site cannot make them differ. A job that captures nothing
    /// (`{ state in … }` using only `state`) costs no allocation on the inline path; only the queued path,
    /// taken when the frame budget is used up, allocates the closure that holds `state` until it runs.
    ///
    /// A caller that must prepare for a queued run (a future returned before the work that completes it
    /// has started) does so when this returns `false`: a queued job runs only when the outermost frame of
    /// this thread unwinds, after the caller has returned.
    @inlinable
    @inline(__always)
    @discardableResult
    static func run<Input>(_ state: Input, _ job: @escaping (Input) -> Void) -> Bool {
        let trampoline = current
        if trampoline.pointee.depth >= maxDepth {
            queue(trampoline, state, job)
            return false
        }
        // `enter(_:_:)` written out: the job is called directly, not through a second closure.
        trampoline.pointee.depth += 1
        job(state)
        if trampoline.pointee.depth == 1 && trampoline.pointee.head < trampoline.pointee.queued.count {
            runQueued(trampoline)
        }
        trampoline.pointee.depth -= 1
        return true
    }

    /// The queued path of ``run(_:_:)``, out of line: stores `job(state)` to run from the outermost frame.
    @usableFromInline
    @inline(never)
    static func queue<Input>(
        _ trampoline: UnsafeMutablePointer<State>, _ state: Input, _ job: @escaping (Input) -> Void
    ) {
        #if ServiceContext
            // Run later by the outermost frame, whose trace context may differ: keep this frame's.
            trampoline.pointee.queued.append(ContextTravel.boundJob({ job(state) }))
        #else
            trampoline.pointee.queued.append({ job(state) })
        #endif
    }

    /// Runs `body` now and returns what it returns if the stack allows; returns `nil` without running it
    /// when the frame budget is used up (the caller then takes its queued path, through ``run(_:_:)``).
    ///
    /// The allocation-free fast paths of combinators on completed futures use this: they skip the
    /// callback, never the trampoline.
    @inlinable
    static func runInline<R>(_ body: () -> R) -> R? {
        let trampoline = current
        if trampoline.pointee.depth >= maxDepth { return nil }
        var output: R?
        enter(trampoline) { output = body() }
        return output
    }

    /// One frame: counts it, and when it is the outermost one, runs what deeper frames queued.
    ///
    /// `body` may enter the trampoline again (through the same pointer), so no access to the state spans
    /// the call.
    @inlinable
    @inline(__always)
    static func enter(_ trampoline: UnsafeMutablePointer<State>, _ body: () -> Void) {
        trampoline.pointee.depth += 1
        body()
        if trampoline.pointee.depth == 1 && trampoline.pointee.head < trampoline.pointee.queued.count {
            runQueued(trampoline)
        }
        trampoline.pointee.depth -= 1
    }

    /// Runs queued work, in FIFO order, until none is left. Each job is taken (``State/head`` moves past
    /// it) before it runs, so a nested drain (``runQueuedBeforeBlocking()``) never runs it twice.
    @usableFromInline
    static func runQueued(_ trampoline: UnsafeMutablePointer<State>) {
        #if ServiceContext
            // Jobs queued with no trace context run with none; the others carry theirs (`run(_:_:)`).
            if ContextTravel.isActive { return ContextTravel.withoutInherited { runQueued(trampoline) } }
        #endif
        while trampoline.pointee.head < trampoline.pointee.queued.count {
            let job = trampoline.pointee.queued[trampoline.pointee.head]
            trampoline.pointee.head += 1
            job()
            if trampoline.pointee.head == trampoline.pointee.queued.count {
                let small = trampoline.pointee.queued.count <= 64
                trampoline.pointee.queued.removeAll(keepingCapacity: small)
                trampoline.pointee.head = 0
            }
        }
    }

    /// Runs the work this thread queued and has not started, before the thread blocks
    /// (``Future/forced()``): the future it is about to wait for may be completed by exactly that work,
    /// which would otherwise wait for the outermost frame, which waits for the blocked thread.
    ///
    /// Jobs run one after another from here (each returns before the next starts), so the stack grows by
    /// one frame budget at most.
    @usableFromInline
    static func runQueuedBeforeBlocking() {
        runQueued(current)
    }

    /// Releases `garbage` (the callbacks of a future dropped while pending) without recursion: the
    /// outermost call releases, in a loop, whatever the releases themselves hand back here.
    static func release(_ garbage: consuming Any) {
        let trampoline = current
        // Moved in, not copied: the loop below must hold the only reference.
        trampoline.pointee.releases.append(consume garbage)
        guard !trampoline.pointee.isReleasing else { return }
        trampoline.pointee.isReleasing = true
        while let next = trampoline.pointee.releases.popLast() {
            // Released here, after `popLast` returned: a release that hands something back appends to
            // the array while no access to it is in progress.
            _ = consume next
        }
        trampoline.pointee.isReleasing = false
    }

    /// Runs `task` inline unless ``maxStackDepthExecutionContext`` tasks are already nested `limit` deep
    /// on this thread; returns `false` without running it then.
    static func runCountingContextDepth(limit: Int, _ task: () -> Void) -> Bool {
        let trampoline = current
        if trampoline.pointee.contextDepth >= limit { return false }
        trampoline.pointee.contextDepth += 1
        task()
        trampoline.pointee.contextDepth -= 1
        return true
    }

    /// The calling thread's identity, stable while the thread lives (the address of its trampoline).
    static var threadIdentity: UInt { UInt(bitPattern: current) }
}

/// The key of each thread's ``Trampoline/State``; its destructor frees the state when the thread exits.
@usableFromInline
let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { raw in
        #if canImport(Darwin)
            let state = raw.assumingMemoryBound(to: Trampoline.State.self)
        #else
            guard let raw else { return }
            let state = raw.assumingMemoryBound(to: Trampoline.State.self)
        #endif
        state.deinitialize(count: 1)
        state.deallocate()
        cfutures_trampoline_set(nil)
    }
    precondition(status == 0, "Futures: pthread_key_create failed (\(status))")
    return key
}()
