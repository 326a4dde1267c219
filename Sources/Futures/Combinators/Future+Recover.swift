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
        derive(RecoverForm<T, E>.self, with: task, context, step: "recover", file: file, line: line)
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
        derive(RecoverWithForm<T, E, E1>.self, with: task, context, step: "recoverWith", file: file, line: line)
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
}

/// `recover`'s work: the value the closure returns for the error, a value passed on.
@usableFromInline
enum RecoverForm<Source: Sendable, SourceFailure: Error>: TransformForm {
    @usableFromInline typealias Value = Source
    @usableFromInline typealias Failure = Never
    @usableFromInline typealias Input = SourceFailure
    @usableFromInline typealias Output = Source

    @inlinable
    static func outcome(
        of result: Result<Source, SourceFailure>, with task: (Input) -> Output
    ) -> DerivedOutcome<Source, Never> {
        switch result {
        case .success(let value): return .result(.success(value))
        case .failure(let error): return .result(.success(task(error)))
        }
    }
}

/// `recoverWith`'s work: the future the closure returns for the error followed, a value passed on.
@usableFromInline
enum RecoverWithForm<Source: Sendable, SourceFailure: Error, Failure: Error>: FollowForm {
    @usableFromInline typealias Value = Source
    @usableFromInline typealias Input = SourceFailure

    @inlinable
    static func outcome(
        of result: Result<Source, SourceFailure>, with task: (Input) -> Future<Value, Failure>
    ) -> DerivedOutcome<Source, Failure> {
        switch result {
        case .success(let value): return .result(.success(value))
        case .failure(let error): return .follow(task(error))
        }
    }
}
