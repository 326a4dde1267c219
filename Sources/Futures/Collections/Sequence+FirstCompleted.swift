extension Sequence {
    /// A future with the result of whichever future of the sequence completes first, success or failure.
    ///
    /// Among futures that are already completed, the first in list order wins. No closure of yours runs.
    /// The losers are left alone (not cancelled: they may be shared). A cancellation request on the
    /// returned future is forwarded to every input still pending, as one of its consumers. An empty sequence gives a future
    /// that never completes, as in BrightFutures.
    public func firstCompleted<T, E>() -> Future<T, E> where Element == Future<T, E> {
        let winner = Future<T, E>()
        for input in self {
            if let result = input.result {
                winner.complete(result)
                break
            }
            winner.depend(on: input, link: .gathered) { result in winner.complete(result) }
        }
        return winner
    }
}
