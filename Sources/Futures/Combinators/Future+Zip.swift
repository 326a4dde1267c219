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
        var receiverFailed = false
        let ready = ifCompleted { result -> Result<(T, U), E>? in
            switch result {
            case .failure(let error):
                receiverFailed = true
                return .failure(error)
            case .success(let value):
                return other.result.map { otherResult in otherResult.map { (value, $0) } }
            }
        }
        if let ready = ready ?? nil {
            let future = Future<(T, U), E>(result: ready)
            if receiverFailed {
                // Decided by this future's failure without looking at `other`: register on it as the slow
                // path does when this future fails first, so that `other` counts the pair as one of its
                // consumers (G8: the outcome does not depend on timing) and its failure as observed (G10).
                // The pair is completed: no request on it can reach `other` any more, on either path.
                future.depend(on: other, link: .gathered) { _ in }
            }
            return future
        }
        // Pending: one consumer registration on each input, so a cancellation request on the pair reaches
        // both while they are pending.
        let future = Future<(T, U), E>()
        if FailureTracing.isOn {
            let traced = FailureTracing.gathered(future, name: "zip", file: file, line: line)
            FailureTracing.gatheredInput(self, into: traced)
            FailureTracing.gatheredInput(other, into: traced)
        }
        let pair = LockedBox(ZipPair<T, U, E>())
        let first = future.depend(on: self, link: .gathered) { result in
            if let outcome = pair.withValue({ $0.receiverCompleted(result) }) { future.complete(outcome) }
        }
        let second = future.depend(on: other, link: .gathered) { result in
            if let outcome = pair.withValue({ $0.otherCompleted(result) }) { future.complete(outcome) }
        }
        if first.hasExtras || second.hasExtras { ProgressLink.aggregate(self, other, into: future) }
        return future
    }
}

/// What `zip` knows so far. The receiver's failure wins at once; `other`'s counts only after the receiver
/// succeeded (BrightFutures' rule), whatever the order in which they complete.
@usableFromInline
struct ZipPair<T: Sendable, U: Sendable, E: Error>: Sendable {
    @usableFromInline var value: T?
    @usableFromInline var otherResult: Result<U, E>?
    @usableFromInline var decided = false

    @inlinable
    init() {}

    @inlinable
    mutating func receiverCompleted(_ result: Result<T, E>) -> Result<(T, U), E>? {
        guard !decided else { return nil }
        switch result {
        case .failure(let error):
            decided = true
            return .failure(error)
        case .success(let received):
            guard let otherResult else {
                value = received
                return nil
            }
            decided = true
            return otherResult.map { (received, $0) }
        }
    }

    @inlinable
    mutating func otherCompleted(_ result: Result<U, E>) -> Result<(T, U), E>? {
        guard !decided else { return nil }
        guard let value else {
            otherResult = result
            return nil
        }
        decided = true
        return result.map { (value, $0) }
    }
}
