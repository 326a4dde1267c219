extension Sequence {
    /// A future with the result of whichever future of the sequence completes first, success or failure.
    ///
    /// Among futures that are already completed, the first in list order wins. No closure of yours runs.
    /// The losers are left alone (not cancelled: they may be shared). A cancellation request on the
    /// returned future is forwarded to every input still pending, as one of its consumers. An empty sequence gives a future
    /// that never completes, as in BrightFutures.
    public func firstCompleted<T, E>(file: StaticString = #fileID, line: UInt = #line) -> Future<T, E>
    where Element == Future<T, E> {
        Gatherer<OneValue<T>, E>.start(
            Array(self), mode: .first(cancellingOthers: false), step: "firstCompleted", file: file, line: line
        ).future
    }
}
