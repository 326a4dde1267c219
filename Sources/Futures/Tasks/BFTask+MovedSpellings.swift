/// Bolts-Swift's success blocks, which received the value: `BFTask` speaks Objective-C Bolts' dialect,
/// whose success block receives the task. Unavailable, so that such a block gets a message saying what to
/// write instead; the compiler never considers these declarations for code that compiles.
extension BFTask {
    /// Bolts-Swift's `continueOnSuccessWith`, whose block received the value: unavailable on `BFTask`.
    @available(
        *, unavailable,
        message: "a BFTask success block receives the task: read $0.result! (or use the BoltsSwift module's Task)"
    )
    @_disfavoredOverload
    @discardableResult
    public func continueOnSuccessWith<U>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (T) throws -> U,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<U> {
        fatalError("unavailable")
    }
}
