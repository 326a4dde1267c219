import Synchronization

extension Future {
    /// A future of all the values of `futures` together, as a tuple in argument order; any arity.
    ///
    /// ```swift
    /// let profile = Future.zip(fetchUser(id), fetchAvatar(id), fetchFriends(id))
    /// // Future<(User, Image, [User]), APIError>
    /// ```
    ///
    /// - Success: once every future has succeeded, with their values in argument order.
    /// - Failure: as soon as one fails, with that error (if several have already failed when `zip` is
    ///   called, the first in argument order). The others keep running: they are not cancelled,
    ///   because other code may be waiting on them too.
    /// - Cancellation: a request on the returned future is passed on to every pending input, as one of
    ///   its consumers: an input is asked once every consumer registered on it has asked (GUARANTEES.md
    ///   G8), so an input shared with someone who still waits keeps running.
    ///
    /// The tuple is built on the thread that completed the last input. This is a static method, so it
    /// never clashes with BrightFutures' instance `zip(_:)` (`a.zip(b)`), which remains available.
    public static func zip<each U: Sendable>(
        _ futures: repeat Future<each U, E>
    ) -> Future<(repeat each U), E> where T == (repeat each U) {
        var count = 0
        for _ in repeat each futures { count += 1 }
        let zipping = ZipState(count: count)
        let zipped = Future<(repeat each U), E>()
        var index = 0
        for future in repeat each futures {
            let slot = index
            index += 1
            zipped.depend(on: future, link: .gathered) { result in
                switch result {
                case .success(let value):
                    if let values = zipping.store(value, at: slot) {
                        zipped.complete(.success(tuple(values, of: repeat (each U).self)))
                    }
                case .failure(let error):
                    zipped.complete(.failure(error))
                }
            }
        }
        if count == 0 {
            zipped.complete(.success(tuple([], of: repeat (each U).self)))
        }
        return zipped
    }
}

/// Rebuilds the tuple from values stored in pack order.
private func tuple<each V>(_ values: [any Sendable], of types: repeat (each V).Type) -> (repeat each V) {
    var position = 0
    func take<W>(_: W.Type) -> W {
        defer { position += 1 }
        // Safe: `values[position]` was stored by the callback of the pack element of type `W`.
        return values[position] as! W
    }
    return (repeat take(each types))
}

/// The values a ``Future/zip(_:)`` has collected so far.
private final class ZipState: Sendable {
    private let lock = ParkingLock()
    // `nonisolated(unsafe)`: only read and written between `lock.lock()` and `lock.unlock()`.
    nonisolated(unsafe) private var values: [(any Sendable)?]
    nonisolated(unsafe) private var missing: Int

    init(count: Int) {
        self.values = Array(repeating: nil, count: count)
        self.missing = count
    }

    /// Stores `value`; returns all the values once the last one has arrived.
    func store(_ value: any Sendable, at slot: Int) -> [any Sendable]? {
        lock.lock()
        defer { lock.unlock() }
        values[slot] = value
        missing -= 1
        return missing == 0 ? values.map { $0! } : nil
    }
}
