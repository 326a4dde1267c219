extension Future {
    /// Turns a failure into a value: the returned future succeeds with this future's value, or with what
    /// `task` returns for its error.
    ///
    /// `task` runs on `context` (``defaultContext()`` if omitted), only if this future fails. The returned
    /// future cannot fail. On the immediate context and an already completed future it is completed
    /// before this method returns. A cancellation request on the returned future is forwarded to this
    /// future while it is pending (see ``requestCancellation()``).
    ///
    /// ```swift
    /// Future<Int, ReadmeError>(error: .requestFailed)
    ///     .recover { _ in 5 }   // provide an offline default
    ///     .onSuccess { value in print(value) }  // 5
    /// ```
    ///
    /// The context comes first, unlabelled, as for `map` and `flatMap`:
    ///
    /// ```swift
    /// let recovered = Future<Int, ReadmeError>(error: .requestFailed)
    ///     .recover(queue.context) { _ in 5 }
    /// ```
    ///
    /// BrightFutures' spelling, `recover(context: queue.context) { … }`, is the same method
    /// (``recover(context:task:file:line:)-(ExecutionContext,_,_,_)``).
    ///
    /// - Parameters:
    ///   - context: Where `task` runs.
    ///   - task: Produces the replacement value for the error.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    @inlinable
    public func recover(
        _ context: ExecutionContext = defaultContext(),
        task: @escaping @Sendable (E) -> T,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, Never> {
        if context.isImmediate,
            let recovered = ifCompleted({ result -> Future<T, Never> in
                switch result {
                case .success(let value): return Future<T, Never>(value: value)
                case .failure(let error): return Future<T, Never>(value: task(error))
                }
            })
        {
            return recovered
        }
        return derive(
            into: TransformFuture<RecoverForm<T, E>>(transform: task), context, step: "recover", file: file, line: line)
    }

    /// ``recover(_:task:file:line:)-(ExecutionContext,_,_,_)`` with BrightFutures' function form of a context.
    ///
    /// `task` runs inside `context`, only if this future fails.
    @inlinable
    public func recover(
        _ context: @escaping ExecutionContextFunction,
        task: @escaping @Sendable (E) -> T,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, Never> {
        recover(ExecutionContext(context), task: task, file: file, line: line)
    }

    /// BrightFutures' spelling of ``recover(_:task:file:line:)-(ExecutionContext,_,_,_)``, the context
    /// labelled `context:`: the same method, with the same behaviour.
    ///
    /// `task` runs on `context`, only if this future fails.
    @inlinable
    public func recover(
        context: ExecutionContext,
        task: @escaping @Sendable (E) -> T,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, Never> {
        recover(context, task: task, file: file, line: line)
    }

    /// BrightFutures' spelling of `recover(_:task:)` with a context function, labelled `context:`.
    ///
    /// `task` runs inside `context`, only if this future fails.
    @inlinable
    public func recover(
        context: @escaping ExecutionContextFunction,
        task: @escaping @Sendable (E) -> T,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, Never> {
        recover(ExecutionContext(context), task: task, file: file, line: line)
    }

    /// Recovers from a failure with another future: the returned future completes with this future's
    /// value, or with the result of the future `task` returns for its error.
    ///
    /// `task` runs on `context` (``defaultContext()`` if omitted), only if this future fails; the error
    /// type becomes that of `task`'s future. Chains of any length complete in bounded stack space. A
    /// cancellation request on the returned future is forwarded to this future while it is pending, then to
    /// `task`'s future.
    ///
    /// The context comes first, unlabelled, as for `map` and `flatMap`; BrightFutures' spelling,
    /// `recoverWith(context: queue.context) { … }`, is the same method
    /// (``recoverWith(context:task:file:line:)-(ExecutionContext,_,_,_)``):
    ///
    /// ```swift
    /// let recovered = Future<Int, ReadmeError>(error: .requestFailed)
    ///     .recoverWith(queue.context) { _ in
    ///         Future<Int, ReadmeError>(value: 5)
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - context: Where `task` runs.
    ///   - task: Returns the future to recover with.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    @inlinable
    public func recoverWith<E1: Error>(
        _ context: ExecutionContext = defaultContext(),
        task: @escaping @Sendable (E) -> Future<T, E1>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E1> {
        if context.isImmediate,
            let recovered = ifCompleted({ result -> Future<T, E1> in
                switch result {
                case .success(let value): return Future<T, E1>(value: value)
                case .failure(let error): return Future<T, E1>.following(task(error))
                }
            })
        {
            return recovered
        }
        let future = FollowFuture<RecoverWithForm<T, E, E1>>(next: task)
        return derive(into: future, context, step: "recoverWith", file: file, line: line)
    }

    /// ``recoverWith(_:task:file:line:)-(ExecutionContext,_,_,_)`` with BrightFutures' function form of a context.
    ///
    /// `task` runs inside `context`, only if this future fails.
    @inlinable
    public func recoverWith<E1: Error>(
        _ context: @escaping ExecutionContextFunction,
        task: @escaping @Sendable (E) -> Future<T, E1>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E1> {
        recoverWith(ExecutionContext(context), task: task, file: file, line: line)
    }

    /// BrightFutures' spelling of ``recoverWith(_:task:file:line:)-(ExecutionContext,_,_,_)``, the
    /// context labelled `context:`: the same method, with the same behaviour.
    ///
    /// `task` runs on `context`, only if this future fails.
    @inlinable
    public func recoverWith<E1: Error>(
        context: ExecutionContext,
        task: @escaping @Sendable (E) -> Future<T, E1>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E1> {
        recoverWith(context, task: task, file: file, line: line)
    }

    /// BrightFutures' spelling of `recoverWith(_:task:)` with a context function, labelled `context:`.
    ///
    /// `task` runs inside `context`, only if this future fails.
    @inlinable
    public func recoverWith<E1: Error>(
        context: @escaping ExecutionContextFunction,
        task: @escaping @Sendable (E) -> Future<T, E1>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E1> {
        recoverWith(ExecutionContext(context), task: task, file: file, line: line)
    }
}

/// `recover`'s work on a pending future (see ``TransformFuture``): a value passed on, an error replaced
/// by the value the closure returns for it.
@usableFromInline
enum RecoverForm<Source: Sendable, SourceFailure: Error>: TransformForm {
    @usableFromInline typealias Input = SourceFailure
    @usableFromInline typealias Output = Source
    @usableFromInline typealias Value = Source
    @usableFromInline typealias Failure = Never

    @inlinable
    static func complete(
        _ future: Future<Source, Never>, from result: Result<Source, SourceFailure>,
        with transform: (SourceFailure) -> Source
    ) {
        switch result {
        case .success(let value): future.complete(.success(value))
        case .failure(let error): future.complete(.success(transform(error)))
        }
    }
}

/// `recoverWith`'s work on a pending future (see ``FollowFuture``): a value passed on, an error replaced
/// by the future the closure returns for it.
@usableFromInline
enum RecoverWithForm<Source: Sendable, SourceFailure: Error, Failure: Error>: FollowForm {
    @usableFromInline typealias Input = SourceFailure
    @usableFromInline typealias Value = Source

    @inlinable
    static func complete(
        _ future: Future<Source, Failure>, from result: Result<Source, SourceFailure>,
        with next: (SourceFailure) -> Future<Source, Failure>
    ) {
        switch result {
        case .success(let value): future.complete(.success(value))
        case .failure(let error): future.completeWith(next(error))
        }
    }
}
