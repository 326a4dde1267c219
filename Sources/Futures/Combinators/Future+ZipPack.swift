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
        _ futures: repeat Future<each U, E>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<(repeat each U), E> where T == (repeat each U) {
        var count = 0
        for _ in repeat each futures { count += 1 }
        // The one gatherer, failing at the first failure to arrive (in argument order among the inputs
        // that have failed already).
        let gatherer = Gatherer<PackValues<repeat each U>, E>(
            count: count, mode: .all(failsOnArrival: true), step: "zip", file: file, line: line)
        var index = 0
        for future in repeat each futures {
            gatherer.gather(future, at: index) { $0.map { $0 as any Sendable } }
            index += 1
        }
        return gatherer.future
    }
}

/// The values of a parameter pack, gathered as `any Sendable` (the variadic `zip`).
struct PackValues<each U: Sendable>: GatherShape {
    static func output(_ values: [any Sendable]) -> (repeat each U) {
        tuple(values, of: repeat (each U).self)
    }
}

private func tuple<each V>(_ values: [any Sendable], of types: repeat (each V).Type) -> (repeat each V) {
    var position = 0
    func take<W>(_: W.Type) -> W {
        defer { position += 1 }
        // Safe: `values[position]` was stored by the callback of the pack element of type `W`.
        return values[position] as! W
    }
    return (repeat take(each types))
}
