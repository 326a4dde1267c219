internal import CFuturesShims
import Synchronization

#if canImport(Darwin)
    import Darwin
#endif

/// The library's one lock: a 4-byte cell that guards the state of every future, stream and token.
/// It spins only briefly, then parks contended waiters in the kernel and, on Apple platforms, donates the waiters' priority
/// to the holder.
///
/// ## Use
/// Store it in a class (`let lock = ParkingLock()`) and run each critical section in ``withLock(_:)``,
/// whose closure returns what to do after the region (outside this file nothing calls ``lock()`` or
/// ``unlock()``; CI counts such calls). It is not recursive: taking it again on the thread that holds it
/// deadlocks. Critical sections are a handful of loads
/// and stores; nothing of the user's (no closure, no `deinit`, no allocation that could re-enter)
/// runs under it.
///
/// ## How it works
/// - **Apple platforms**: the 32-bit word *is* an `os_unfair_lock` (`OS_UNFAIR_LOCK_INIT` is 0). It is
///   only ever touched through `os_unfair_lock_trylock`/`_lock`/`_unlock`, never through the `Atomic`
///   API (the `Atomic` is only the address-stable storage). A contended `lock()` retries `trylock` a
///   few times, then calls `os_unfair_lock_lock`, which parks the thread in the kernel and raises the
///   owner's priority to the waiter's: a low-QoS holder cannot starve a high-QoS waiter (the priority
///   inversion that retired `OSSpinLock`).
/// - **Linux and other platforms**: a futex mutex on the 32-bit word: 0 unlocked, 1 locked, 2 locked
///   with (possible) waiters. `lock()` is one compare-and-swap 0→1 when free; otherwise it spins
///   briefly (with a CPU spin hint), then swaps in 2 and sleeps in `FUTEX_WAIT` until the word
///   changes. `unlock()` swaps in 0 and, only if it saw 2, wakes one sleeper with `FUTEX_WAKE`. The
///   futex calls live in our own C target, `CFuturesShims` (glibc's `syscall` is variadic, so Swift
///   cannot call it). Linux has no priority donation for such a lock; the waiters sleep instead of
///   burning the processor the holder needs. On a platform with neither, "waiting" yields the
///   processor and the lock degrades to spin-then-yield.
///
/// The lock is unfair (a running thread may take it ahead of a woken sleeper), which is what gives
/// it its throughput; woken sleepers retry at once, and every thread made progress in a 64-thread
/// hammer test on 2 cores.
///
/// ## Why not `Synchronization.Mutex` or `pthread_mutex_t`?
/// - A future must stay small (see ARCHITECTURE.md, "The cell"): `pthread_mutex_t` is 40 bytes on Linux.
/// - `Mutex` on Linux parks contended waiters on a priority-inheritance futex through which the
///   kernel hands over ownership; ThreadSanitizer cannot see that hand-over and reports false races.
///   Here every acquisition, even after a sleep, is a userspace acquire operation on the word, and
///   every release a release operation: those give ThreadSanitizer its happens-before edges (the futex
///   calls only put threads to sleep and wake them).
/// - `Mutex` offers only `withLock`, not separate `lock()`/`unlock()`.
///
/// ## Address stability
/// A futex and an `os_unfair_lock` are identified by their address, so the word must not move while
/// it is in use. It cannot: `ParkingLock` is `~Copyable` and contains an `Atomic`, so it is always passed
/// by address (a `borrowing` method sees the real storage, never a copy), and it can only be moved
/// when nothing borrows it, so when no thread holds it or waits on it. Stored in a class, it never
/// moves at all. `LockTests` checks that the address a method sees is the field inside the object.
@usableFromInline
struct ParkingLock: ~Copyable, Sendable {
    @usableFromInline
    let word: Atomic<UInt32>

    @inlinable
    init() {
        self.word = Atomic(0)
    }

    /// How many times a contended `lock()` spins before it parks.
    @usableFromInline
    static var spinLimit: Int { 100 }

    /// Calls `body` with the address of the lock word (the real storage, see "Address stability").
    @inlinable
    @inline(__always)
    func withWordAddress<R>(_ body: (UnsafeMutablePointer<UInt32>) -> R) -> R {
        withUnsafePointer(to: word) { atomic in
            body(UnsafeMutableRawPointer(mutating: atomic).assumingMemoryBound(to: UInt32.self))
        }
    }

    /// Runs `body` while holding the lock, then releases it (also when `body` throws).
    ///
    /// `body` runs on the calling thread; like any critical section it must not run user code.
    @inlinable
    @inline(__always)
    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    #if canImport(Darwin)
        @inlinable
        @inline(__always)
        func withUnfairLock<R>(_ body: (os_unfair_lock_t) -> R) -> R {
            withWordAddress { body(UnsafeMutableRawPointer($0).assumingMemoryBound(to: os_unfair_lock.self)) }
        }

        /// Acquires the lock, parking the calling thread (and donating its priority to the holder)
        /// while another thread holds it.
        @inlinable
        @inline(__always)
        func lock() {
            if !withUnfairLock({ os_unfair_lock_trylock($0) }) {
                lockContended()
            }
        }

        @usableFromInline
        @inline(never)
        func lockContended() {
            // Spin briefly (without donating priority), then park (donating it).
            let acquired = withUnfairLock { lock in
                var remaining = Self.spinLimit
                while remaining > 0 {
                    cfutures_spin_hint()
                    if os_unfair_lock_trylock(lock) { return true }
                    remaining -= 1
                }
                return false
            }
            if acquired { return }
            noteParking()
            withUnfairLock { os_unfair_lock_lock($0) }
        }

        /// Releases the lock, which the calling thread must hold (`os_unfair_lock` traps otherwise).
        @inlinable
        @inline(__always)
        func unlock() {
            withUnfairLock { os_unfair_lock_unlock($0) }
        }
    #else
        // Word values.
        @usableFromInline static var unlocked: UInt32 { 0 }
        @usableFromInline static var locked: UInt32 { 1 }
        @usableFromInline static var lockedWithWaiters: UInt32 { 2 }

        /// Acquires the lock: one compare-and-swap when it is free; otherwise spins briefly, then
        /// parks the calling thread until the holder releases it.
        @inlinable
        @inline(__always)
        func lock() {
            if word.compareExchange(
                expected: Self.unlocked,
                desired: Self.locked,
                successOrdering: .acquiring,
                failureOrdering: .relaxed
            ).exchanged {
                return
            }
            lockContended()
        }

        @usableFromInline
        @inline(never)
        func lockContended() {
            // Spin while the holder runs and nobody sleeps; take the lock if it becomes free.
            var state = spin()
            if state == Self.unlocked {
                let (exchanged, original) = word.compareExchange(
                    expected: Self.unlocked,
                    desired: Self.locked,
                    successOrdering: .acquiring,
                    failureOrdering: .relaxed
                )
                if exchanged { return }
                state = original
            }
            noteParking()
            // Park. Taking the lock from here leaves the word at 2 (this thread cannot know whether
            // others still sleep), so its unlock wakes the next sleeper, if any.
            while true {
                if state != Self.lockedWithWaiters,
                    word.exchange(Self.lockedWithWaiters, ordering: .acquiring) == Self.unlocked
                {
                    return
                }
                withWordAddress { cfutures_futex_wait($0, Self.lockedWithWaiters) }
                state = spin()
            }
        }

        /// Spins while the word says "locked, nobody sleeps", up to ``spinLimit`` times; returns the
        /// word's last value.
        @usableFromInline
        func spin() -> UInt32 {
            var remaining = Self.spinLimit
            while true {
                let state = word.load(ordering: .relaxed)
                if state != Self.locked || remaining == 0 { return state }
                cfutures_spin_hint()
                remaining -= 1
            }
        }

        /// Releases the lock, which the calling thread must hold; wakes one parked waiter if there is
        /// one. (Unlocking a lock the thread does not hold is a programming error with no defined
        /// outcome.)
        @inlinable
        @inline(__always)
        func unlock() {
            if word.exchange(Self.unlocked, ordering: .releasing) == Self.lockedWithWaiters {
                wakeOne()
            }
        }

        @usableFromInline
        @inline(never)
        func wakeOne() {
            withWordAddress { cfutures_futex_wake_one($0) }
        }
    #endif
}

// MARK: - Test hooks

extension ParkingLock {
    /// The address of the lock word that `watchParksForTesting()` selected (0: none).
    static let watchedAddress = Atomic<UInt>(0)
    /// How many `lock()` calls on the watched lock gave up spinning and parked.
    static let watchedParks = Atomic<Int>(0)

    /// Starts counting, in ``parksOfWatchedLockForTesting``, the `lock()` calls on this lock that
    /// park; the count restarts at 0. One lock at a time is watched (tests that use it are serialized).
    func watchParksForTesting() {
        Self.watchedParks.store(0, ordering: .sequentiallyConsistent)
        Self.watchedAddress.store(addressForTesting(), ordering: .sequentiallyConsistent)
    }

    /// How many `lock()` calls on the watched lock stopped spinning and parked (on Linux: went to sleep
    /// on the futex; on Apple platforms: called `os_unfair_lock_lock`) since it was selected.
    static var parksOfWatchedLockForTesting: Int {
        watchedParks.load(ordering: .sequentiallyConsistent)
    }

    /// The address of the lock word, as this `borrowing` method sees it.
    func addressForTesting() -> UInt {
        withWordAddress { UInt(bitPattern: $0) }
    }

    /// Called once by each `lock()` that stops spinning and parks. A relaxed load and a compare
    /// outside tests, next to a system call.
    func noteParking() {
        let watched = Self.watchedAddress.load(ordering: .relaxed)
        if watched != 0, watched == addressForTesting() {
            Self.watchedParks.add(1, ordering: .sequentiallyConsistent)
        }
    }
}
