import Futures

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

/// A block returning a `BFTask` to `continueWith` or `continueOnSuccessWith`: those take value-returning
/// blocks; the chaining forms are `continueWithTask` and `continueOnSuccessWithTask`. Unavailable, so that
/// code whose types need the chained task gets a message naming the form to use; the compiler never
/// considers these declarations for code that compiles. (Where the types allow it, such a block still
/// compiles against the value form, nested as a `BFTask<BFTask<V>>`: that call reports
/// `FuturesDiagnostic.nestedTask` with its site.)
extension BFTask {
    /// A task-returning block: use ``continueWithTask(executor:block:cancellationToken:file:line:)``.
    @available(*, unavailable, renamed: "continueWithTask(executor:block:cancellationToken:)")
    @discardableResult
    public func continueWith<V>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<V> {
        fatalError("unavailable")
    }

    /// A task-returning block: use ``continueWithTask(executor:cancellationToken:block:file:line:)``.
    @available(*, unavailable, renamed: "continueWithTask(executor:cancellationToken:block:)")
    @discardableResult
    public func continueWith<V>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>
    ) -> BFTask<V> {
        fatalError("unavailable")
    }

    /// A task-returning block: use ``continueOnSuccessWithTask(executor:block:cancellationToken:file:line:)``.
    @available(*, unavailable, renamed: "continueOnSuccessWithTask(executor:block:cancellationToken:)")
    @discardableResult
    public func continueOnSuccessWith<V>(
        executor: BFExecutor = .default,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>,
        cancellationToken: BFCancellationToken? = nil
    ) -> BFTask<V> {
        fatalError("unavailable")
    }

    /// A task-returning block: use ``continueOnSuccessWithTask(executor:cancellationToken:block:file:line:)``.
    @available(*, unavailable, renamed: "continueOnSuccessWithTask(executor:cancellationToken:block:)")
    @discardableResult
    public func continueOnSuccessWith<V>(
        executor: BFExecutor = .default,
        cancellationToken: BFCancellationToken?,
        block: @escaping @Sendable (BFTask<T>) throws -> BFTask<V>
    ) -> BFTask<V> {
        fatalError("unavailable")
    }
}
