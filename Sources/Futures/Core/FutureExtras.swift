/// Data that only a few futures carry — where a failed promise was created, progress, a failure trace —
/// kept in one process-wide table beside the futures instead of in every cell.
///
/// A future with an entry has the `Future.Flags.hasExtras` bit set (under its lock, before the entry is
/// inserted), and its `deinit` removes the entry only then: a future that never had extras pays one bit
/// test at deallocation and nothing else, and the 40-byte cell does not grow for features most futures
/// never use. The table's lock is taken only by futures that have or get an entry.
///
/// This is the one mechanism for per-future side data; each feature keeps its field in ``Entry``.
enum FutureExtras {
    /// One future's side data. Every field is optional; an entry whose fields are all `nil` is removed.
    struct Entry: Sendable {
        /// Where the promise of a failed future was created (for unobserved-failure reports).
        var origin: CallSite?
        /// The future's progress, when its producer or one of its inputs reports progress.
        var progress: (any AnyObject & Sendable)?
        /// The call site this future was created at and the upstream steps a failure came through, when
        /// failure tracing is on.
        var trace: (any AnyObject & Sendable)?
        /// Removes the future's record from the pending-futures registry when it is deallocated, while
        /// pending futures are tracked.
        var pending: (any AnyObject & Sendable)?

        var isEmpty: Bool { origin == nil && progress == nil && trace == nil && pending == nil }
    }

    /// The entries by future. Keys are only valid while the future lives: its `deinit` removes its entry.
    private static let table = LockedBox<[ObjectIdentifier: Entry]>([:])

    /// Updates (creating if needed) the entry of `future` with `body`, after the lock; returns what `body`
    /// returns. The entry is removed if `body` leaves it empty. `body` runs under the table's lock: it must
    /// only assign fields (no callbacks); what an assignment replaces is released after the lock.
    static func update<T, E, R>(_ future: Future<T, E>, _ body: (inout Entry) -> R) -> R {
        future.lock.withLock { future.setFlag(Future<T, E>.Flags.hasExtras, true) }
        let key = ObjectIdentifier(future)
        var replaced: Entry? = nil
        let outcome = table.withValue { table -> R in
            var entry = table.removeValue(forKey: key) ?? Entry()
            // The entry as it was: a field `body` overwrites is released with it, after the lock.
            replaced = entry
            let outcome = body(&entry)
            if !entry.isEmpty {
                table[key] = entry
            }
            return outcome
        }
        _ = consume replaced  // released after the lock
        return outcome
    }

    /// The entry of `future`, if it has one.
    static func entry<T, E>(of future: Future<T, E>) -> Entry? {
        let has = future.lock.withLock { future.flag(Future<T, E>.Flags.hasExtras) }
        guard has else { return nil }
        let key = ObjectIdentifier(future)
        return table.withValue { $0[key] }
    }

    /// Removes and returns the entry of a future being deallocated (called only when its `hasExtras` bit
    /// is set). The caller releases what it returns, after the table's lock.
    static func take(_ future: AnyObject) -> Entry? {
        let key = ObjectIdentifier(future)
        return table.withValue { $0.removeValue(forKey: key) }
    }

    /// The number of futures that have an entry (for tests: it returns to its old value once they are gone).
    static var count: Int { table.withValue { $0.count } }
}
