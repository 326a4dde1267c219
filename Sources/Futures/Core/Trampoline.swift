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
/// on. Every such synchronous call goes through ``run(_:orQueue:)`` or ``runInline(_:)``, which share one
/// depth count per thread: a cascade may nest up to ``maxDepth`` frames (fast: no allocation); deeper
/// work is queued on the thread's trampoline and run in a loop by the outermost frame. Chains and
/// recursions of any length therefore run in bounded stack space.
///
/// The trampoline also releases what dropped pending futures held (``release(_:)``) in a loop, so a long
/// chain that is dropped without completing is freed iteratively, not recursively.
@usableFromInline
final class Trampoline {
    /// Frames a cascade may nest before further work is queued instead of called.
    @usableFromInline
    static var maxDepth: Int { 48 }

    /// How many trampoline frames are active on this thread.
    // Thread-confined (reached only through this thread's key), so exclusivity cannot be violated
    // across threads; the runtime check is skipped on this hot path.
    @usableFromInline
    @exclusivity(unchecked)
    var depth = 0
    /// Work queued by frames that would have exceeded ``maxDepth``; run by the outermost frame.
    @usableFromInline
    @exclusivity(unchecked)
    var queued: [() -> Void] = []
    /// Depth of ``maxStackDepthExecutionContext`` tasks running inline on this thread.
    @exclusivity(unchecked)
    var contextDepth = 0
    /// Things to release one after another (see ``release(_:)``), and whether a loop is releasing them.
    @exclusivity(unchecked)
    var releases: [Any] = []
    @exclusivity(unchecked)
    var isReleasing = false

    /// The calling thread's trampoline, created on first use and freed when the thread exits.
    @inlinable
    static var current: Trampoline {
        if let raw = pthread_getspecific(trampolineKey) {
            return Unmanaged<Trampoline>.fromOpaque(raw).takeUnretainedValue()
        }
        return makeCurrent()
    }

    @usableFromInline
    @inline(never)
    static func makeCurrent() -> Trampoline {
        let fresh = Trampoline()
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(fresh).toOpaque())
        return fresh
    }

    @usableFromInline
    init() {}

    /// Runs `body` now if the stack allows, otherwise queues `deferred()` to run from the outermost frame.
    ///
    /// `body` and `deferred` must do the same work; `deferred` is only built (and allocated) on the
    /// rare deep path, so the common case costs no allocation.
    @inlinable
    static func run(_ body: () -> Void, orQueue deferred: @autoclosure () -> (() -> Void)) {
        let trampoline = current
        if trampoline.depth >= maxDepth {
            trampoline.queued.append(deferred())
            return
        }
        trampoline.enter(body)
    }

    /// Runs `body` now and returns what it returns if the stack allows; returns `nil` without running it
    /// when the frame budget is used up (the caller then takes its queued path, through ``run(_:orQueue:)``).
    ///
    /// The allocation-free fast paths of combinators on completed futures use this: they skip the
    /// callback, never the trampoline.
    @inlinable
    static func runInline<R>(_ body: () -> R) -> R? {
        let trampoline = current
        if trampoline.depth >= maxDepth { return nil }
        var output: R?
        trampoline.enter { output = body() }
        return output
    }

    /// One frame: counts it, and when it is the outermost one, runs what deeper frames queued.
    @inlinable
    func enter(_ body: () -> Void) {
        depth += 1
        body()
        if depth == 1 && !queued.isEmpty {
            runQueued()
        }
        depth -= 1
    }

    /// Runs queued work, in FIFO order, until none is left.
    @usableFromInline
    func runQueued() {
        var index = 0
        while index < queued.count {
            let job = queued[index]
            index += 1
            job()
            if index == queued.count {
                queued.removeAll(keepingCapacity: queued.count <= 64)
                index = 0
            }
        }
    }

    /// Runs the work this thread queued, before the thread blocks (``Future/forced()``): the future it is
    /// about to wait for may be completed by exactly that work, which would otherwise wait for the
    /// outermost frame, which waits for the blocked thread.
    @usableFromInline
    static func runQueuedBeforeBlocking() {
        let trampoline = current
        guard !trampoline.queued.isEmpty else { return }
        // Queued jobs were taken off the stack to bound it; running them from this deeper frame costs one
        // more frame budget at most, since new work queues again once the budget is used.
        let jobs = trampoline.queued
        trampoline.queued = []
        let saved = trampoline.depth
        trampoline.depth = 0
        trampoline.enter {
            for job in jobs { job() }
        }
        trampoline.depth = saved
    }

    /// Releases `garbage` (the callbacks of a future dropped while pending) without recursion: the
    /// outermost call releases, in a loop, whatever the releases themselves hand back here.
    static func release(_ garbage: Any) {
        let trampoline = current
        trampoline.releases.append(garbage)
        guard !trampoline.isReleasing else { return }
        trampoline.isReleasing = true
        while let next = trampoline.releases.popLast() {
            _ = consume next
        }
        trampoline.isReleasing = false
    }
}

#if canImport(Darwin)
    @usableFromInline
    let trampolineKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            Unmanaged<Trampoline>.fromOpaque(raw).release()
        }
        precondition(status == 0, "Futures: pthread_key_create failed (\(status))")
        return key
    }()
#else
    @usableFromInline
    let trampolineKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<Trampoline>.fromOpaque(raw).release()
        }
        precondition(status == 0, "Futures: pthread_key_create failed (\(status))")
        return key
    }()
#endif
