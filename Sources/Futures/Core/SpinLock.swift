import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-byte lock built on `Atomic`, used to guard the state of every future.
///
/// Why not `Synchronization.Mutex` or `pthread_mutex_t`?
/// - A future must stay small (see ARCHITECTURE.md, "Cheap"): `pthread_mutex_t` is 40 bytes on Linux.
/// - `Mutex` on Linux parks contended waiters on a priority-inheritance futex that ThreadSanitizer
///   cannot see, which makes TSan report false races (see the project's tooling notes).
///
/// Critical sections guarded by this lock are a handful of loads and stores (never user code), so a
/// short spin followed by `sched_yield()` is the right trade-off. Acquire/release ordering on the
/// atomic gives ThreadSanitizer the happens-before edges it needs.
@usableFromInline
struct SpinLock: ~Copyable, Sendable {
    @usableFromInline
    let word: Atomic<UInt8>

    @inlinable
    init() {
        self.word = Atomic(0)
    }

    @inlinable
    @inline(__always)
    func lock() {
        if word.compareExchange(expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed)
            .exchanged
        {
            return
        }
        lockContended()
    }

    @usableFromInline
    @inline(never)
    func lockContended() {
        var spins = 0
        while true {
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed)
                    .exchanged
            {
                return
            }
            spins += 1
            if spins >= 32 {
                spins = 0
                sched_yield()
            }
        }
    }

    @inlinable
    @inline(__always)
    func unlock() {
        word.store(0, ordering: .releasing)
    }
}
