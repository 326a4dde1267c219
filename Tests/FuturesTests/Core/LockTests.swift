import Dispatch
import Foundation
import Testing

@testable import Futures

/// A plain counter guarded by a `ParkingLock`; each thread also counts its own increments.
private final class GuardedCounter: @unchecked Sendable {
    // `@unchecked Sendable` is sound because `total` and `perThread` are read and written only
    // between `lock.lock()` and `lock.unlock()` (the test reads them after joining every thread).
    let lock = ParkingLock()
    var total = 0
    var perThread: [Int]

    init(threads: Int) {
        perThread = Array(repeating: 0, count: threads)
    }
}

/// An object whose only stored property is a lock.
private final class LockOnly: Sendable {
    let lock = ParkingLock()
}

/// An object whose lock is its second stored property.
private final class TagThenLock: Sendable {
    let tag: UInt8 = 7
    let lock = ParkingLock()
}

/// Addresses seen by several threads.
private final class AddressSet: @unchecked Sendable {
    // `@unchecked Sendable` is sound because `addresses` is read and written only under `lock`.
    let lock = ParkingLock()
    var addresses: Set<UInt> = []
}

/// Runs `body(index)` on `count` new threads that all start together; returns when all have finished.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        Thread.detachNewThread {
            ready.signal()
            go.wait()
            body(index)
            done.signal()
        }
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { go.signal() }
    for _ in 0..<count { done.wait() }
}

@Suite("ParkingLock: mutual exclusion, progress, parking, address stability", .serialized)
struct LockTests {
    @Test func theLockIsFourBytes() {
        #expect(MemoryLayout<ParkingLock>.size == 4)
        #expect(MemoryLayout<ParkingLock>.alignment == 4)
    }

    @Test(arguments: [(threads: 16, quota: 20_000), (threads: 64, quota: 5_000)])
    func moreThreadsThanCoresIncrementExactlyAndEachFinishesItsQuota(threads: Int, quota: Int) {
        let counter = GuardedCounter(threads: threads)
        onThreads(threads) { index in
            for _ in 0..<quota {
                counter.lock.lock()
                // A read-modify-write in two steps: any overlap loses an increment.
                let seen = counter.total
                counter.total = seen + 1
                counter.perThread[index] += 1
                counter.lock.unlock()
            }
        }
        counter.lock.lock()
        let total = counter.total
        let perThread = counter.perThread
        counter.lock.unlock()
        #expect(total == threads * quota)
        #expect(perThread == Array(repeating: quota, count: threads))
    }

    @Test func withLockHoldsTheLockAroundItsBodyAndReleasesItOnThrow() {
        struct Boom: Error {}
        let counter = GuardedCounter(threads: 1)
        onThreads(8) { _ in
            for _ in 0..<2_000 {
                counter.lock.withLock {
                    let seen = counter.total
                    counter.total = seen + 1
                }
            }
        }
        #expect(throws: Boom.self) {
            try counter.lock.withLock { () throws(Boom) -> Int in throw Boom() }
        }
        // Released after the throw: taking it again does not deadlock.
        let total = counter.lock.withLock { counter.total }
        #expect(total == 8 * 2_000)
    }

    @Test func waitersParkWhileTheHolderIsBlockedAndAllAcquireAfterItsRelease() {
        let waiters = 4
        let counter = GuardedCounter(threads: waiters)
        counter.lock.watchParksForTesting()
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            counter.lock.lock()
            held.signal()
            release.wait()  // Blocks while holding the lock, for as long as the test wants.
            counter.lock.unlock()
            done.signal()
        }
        held.wait()
        for index in 0..<waiters {
            Thread.detachNewThread {
                counter.lock.lock()
                counter.total += 1
                counter.perThread[index] += 1
                counter.lock.unlock()
                done.signal()
            }
        }
        // Each waiter spins a bounded number of times, then parks. A lock that never parks never
        // gets there: the bound below then fails the test instead of hanging it.
        let deadline = ContinuousClock.now + .seconds(60)
        while ParkingLock.parksOfWatchedLockForTesting < waiters, ContinuousClock.now < deadline {
            sched_yield()
        }
        #expect(ParkingLock.parksOfWatchedLockForTesting == waiters)
        release.signal()
        for _ in 0...waiters { done.wait() }
        counter.lock.lock()
        #expect(counter.total == waiters)
        #expect(counter.perThread == Array(repeating: 1, count: waiters))
        counter.lock.unlock()
        // Woken waiters that find the lock taken sleep again without counting a new park.
        #expect(ParkingLock.parksOfWatchedLockForTesting == waiters)
    }

    @Test func anUncontendedLockNeverParks() {
        let counter = GuardedCounter(threads: 1)
        counter.lock.watchParksForTesting()
        for _ in 0..<10_000 {
            counter.lock.lock()
            counter.total += 1
            counter.lock.unlock()
        }
        #expect(ParkingLock.parksOfWatchedLockForTesting == 0)
    }

    @Test func aBorrowingMethodSeesTheFieldInsideTheObjectOnEveryThread() {
        let header = 2 * MemoryLayout<Int>.size  // Swift object header: metadata and reference counts.
        let only = LockOnly()
        let tagged = TagThenLock()
        let onlyBase = UInt(bitPattern: Unmanaged.passUnretained(only).toOpaque())
        let taggedBase = UInt(bitPattern: Unmanaged.passUnretained(tagged).toOpaque())
        #expect(only.lock.addressForTesting() == onlyBase + UInt(header))
        // `tag` is one byte; the lock is 4-aligned after it.
        #expect(tagged.tag == 7)
        #expect(tagged.lock.addressForTesting() == taggedBase + UInt(header + 4))
        let seen = AddressSet()
        onThreads(8) { _ in
            for _ in 0..<100 {
                let address = only.lock.addressForTesting()
                seen.lock.withLock { _ = seen.addresses.insert(address) }
            }
        }
        #expect(seen.lock.withLock { seen.addresses } == [onlyBase + UInt(header)])
    }
}
