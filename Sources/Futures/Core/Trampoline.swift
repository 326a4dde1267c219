#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Per-thread bookkeeping that keeps completion cascades off the stack.
///
/// Completing a future runs its immediate callbacks, which may complete further futures, and so on.
/// Each thread lets such a cascade nest up to ``Trampoline/maxDepth`` frames (fast: no allocation);
/// deeper work is queued on the thread's trampoline and run in a loop by the outermost frame. A chain
/// of a million `map`s or `flatMap`s therefore completes in bounded stack space.
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
        trampoline.depth += 1
        body()
        if trampoline.depth == 1 && !trampoline.queued.isEmpty {
            trampoline.runQueued()
        }
        trampoline.depth -= 1
    }

    /// Runs queued work, in FIFO order, until none is left. Called at depth 1 only.
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
