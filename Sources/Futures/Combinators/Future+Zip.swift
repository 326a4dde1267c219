extension Future {
    /// Pairs this future's value with `other`'s.
    ///
    /// The returned future succeeds with both values once both have succeeded. It fails with this
    /// future's error as soon as this future fails; otherwise, after this future succeeded, with
    /// `other`'s error. So when both fail, the receiver's error wins (as in BrightFutures). No closure of
    /// yours runs; the pair is built on the thread that completes the last of the two. When both are
    /// already completed, or this future already failed, the returned future is too; `other` is still
    /// registered on as one of its consumers, so its later failure counts as observed. A cancellation request on the returned future is
    /// forwarded to this future while it is pending, then to `other` (each as one of its consumers).
    ///
    /// ```swift
    /// Future<Int, Never>(value: 1).zip(Future(value: 2)).onSuccess { a, b in
    ///     // a is 1, b is 2
    /// }
    /// ```
    @inlinable
    public func zip<U>(_ other: Future<U, E>, file: StaticString = #fileID, line: UInt = #line) -> Future<(T, U), E> {
        // The one gatherer: a failure decides in input order, so the receiver's failure wins at once and
        // `other`'s counts only after the receiver succeeded. Both are gathered (each as one consumer)
        // whatever their state, so the outcome and the consumers do not depend on timing.
        let gatherer = Gatherer<PairValues<T, U>, E>(
            count: 2, mode: .all(failsOnArrival: false), step: "zip", file: file, line: line)
        let first = gatherer.gather(self, at: 0) { $0.map { $0 as any Sendable } }
        let second = gatherer.gather(other, at: 1) { $0.map { $0 as any Sendable } }
        if first || second { ProgressLink.aggregate(self, other, into: gatherer.future) }
        return gatherer.future
    }
}

/// A pair of values, gathered as `any Sendable` (`zip`).
@usableFromInline
enum PairValues<A: Sendable, B: Sendable>: GatherShape {
    @inlinable
    static func output(_ values: [any Sendable]) -> (A, B) {
        // Safe: slot 0 was filled from the `A` input and slot 1 from the `B` input.
        (values[0] as! A, values[1] as! B)
    }
}
