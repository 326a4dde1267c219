extension Future {
    /// Transforms the value with `f`; a failure passes through unchanged (and `f` does not run).
    ///
    /// `f` runs on ``defaultContext()``.
    @inlinable
    public func map<U>(
        _ f: @escaping @Sendable (T) -> U, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<U, E> {
        map(defaultContext(), f: f, file: file, line: line)
    }

    /// Transforms the value with `f`, run on `context`; a failure passes through unchanged.
    ///
    /// On the immediate context and an already completed future, `f` runs right away on the calling
    /// thread and the returned future is already completed.
    @inlinable
    public func map<U>(
        _ context: ExecutionContext, f: @escaping @Sendable (T) -> U, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<U, E> {
        if context.isImmediate, let mapped = ifCompleted({ Future<U, E>(result: $0.map(f)) }) {
            return mapped
        }
        return derive(
            into: TransformFuture<MapForm<T, E, U>>(transform: f), context, step: "map", file: file, line: line)
    }

    /// Continues with the future `f` returns for the value; a failure passes through (and `f` does not run).
    ///
    /// `f` runs on ``defaultContext()``. The returned future completes with the result of `f`'s future.
    @inlinable
    public func flatMap<U>(
        _ f: @escaping @Sendable (T) -> Future<U, E>, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<U, E> {
        flatMap(defaultContext(), f: f, file: file, line: line)
    }

    /// Continues with the future `f` returns for the value, `f` running on `context`.
    ///
    /// A failure of this future, or of `f`'s future, fails the returned future. Chains and recursions of
    /// any depth complete in bounded stack space. The returned future is never `f`'s future itself while
    /// that is pending, so a cancellation request on it reaches this future while pending and `f`'s
    /// future afterwards, as one consumer among others, whatever the timing.
    @inlinable
    public func flatMap<U>(
        _ context: ExecutionContext, f: @escaping @Sendable (T) -> Future<U, E>,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Future<U, E> {
        if context.isImmediate,
            let next = ifCompleted({ result -> Future<U, E> in
                switch result {
                case .success(let value): return Future<U, E>.following(f(value))
                case .failure(let error): return Future<U, E>(error: error)
                }
            })
        {
            return next
        }
        return derive(
            into: FollowFuture<FlatMapForm<T, E, U>>(next: f), context, step: "flatMap", file: file, line: line)
    }

    /// Continues with the `Result` that `f` returns for the value; a failure passes through.
    ///
    /// `f` runs on ``defaultContext()``.
    @inlinable
    public func flatMap<U>(
        _ f: @escaping @Sendable (T) -> Result<U, E>, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<U, E> {
        flatMap(defaultContext(), f: f, file: file, line: line)
    }

    /// Continues with the `Result` that `f`, run on `context`, returns for the value.
    @inlinable
    public func flatMap<U>(
        _ context: ExecutionContext, f: @escaping @Sendable (T) -> Result<U, E>,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Future<U, E> {
        if context.isImmediate, let next = ifCompleted({ Future<U, E>(result: $0.flatMap(f)) }) {
            return next
        }
        return derive(
            into: TransformFuture<FlatMapResultForm<T, E, U>>(transform: f), context, step: "flatMap", file: file,
            line: line)
    }

    /// Transforms the error with `f`; a success passes through unchanged. `f` runs on ``defaultContext()``.
    @inlinable
    public func mapError<E1: Error>(
        _ f: @escaping @Sendable (E) -> E1, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, E1> {
        mapError(defaultContext(), f: f, file: file, line: line)
    }

    /// Transforms the error with `f`, run on `context`; a success passes through unchanged.
    @inlinable
    public func mapError<E1: Error>(
        _ context: ExecutionContext, f: @escaping @Sendable (E) -> E1, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, E1> {
        if context.isImmediate, let mapped = ifCompleted({ Future<T, E1>(result: $0.mapError(f)) }) {
            return mapped
        }
        let future = TransformFuture<MapErrorForm<T, E, E1>>(transform: f)
        return derive(into: future, context, step: "mapError", file: file, line: line)
    }
}

/// `map`'s work on a pending future (see ``TransformFuture``): the value transformed, a failure passed on.
@usableFromInline
enum MapForm<Source: Sendable, SourceFailure: Error, Value: Sendable>: TransformForm {
    @usableFromInline typealias Input = Source
    @usableFromInline typealias Output = Value
    @usableFromInline typealias Failure = SourceFailure

    @inlinable
    static func complete(
        _ future: Future<Value, SourceFailure>, from result: Result<Source, SourceFailure>,
        with transform: (Source) -> Value
    ) {
        future.complete(result.map(transform))
    }
}

/// `flatMap`'s work on a pending future (see ``FollowFuture``): the future the closure returns for the
/// value followed, a failure passed on.
@usableFromInline
enum FlatMapForm<Source: Sendable, SourceFailure: Error, Value: Sendable>: FollowForm {
    @usableFromInline typealias Input = Source
    @usableFromInline typealias Failure = SourceFailure

    @inlinable
    static func complete(
        _ future: Future<Value, SourceFailure>, from result: Result<Source, SourceFailure>,
        with next: (Source) -> Future<Value, SourceFailure>
    ) {
        switch result {
        case .success(let value): future.completeWith(next(value))
        case .failure(let error): future.complete(.failure(error))
        }
    }
}

/// `mapError`'s work on a pending future (see ``TransformFuture``): the error transformed, a value passed
/// on.
@usableFromInline
enum MapErrorForm<Source: Sendable, SourceFailure: Error, Failure: Error>: TransformForm {
    @usableFromInline typealias Input = SourceFailure
    @usableFromInline typealias Output = Failure
    @usableFromInline typealias Value = Source

    @inlinable
    static func complete(
        _ future: Future<Source, Failure>, from result: Result<Source, SourceFailure>,
        with transform: (SourceFailure) -> Failure
    ) {
        future.complete(result.mapError(transform))
    }
}

/// The work on a pending future of `flatMap` with a closure that returns a `Result` (see
/// ``TransformFuture``): the closure's result for the value, a failure passed on.
@usableFromInline
enum FlatMapResultForm<Source: Sendable, SourceFailure: Error, Value: Sendable>: TransformForm {
    @usableFromInline typealias Input = Source
    @usableFromInline typealias Output = Result<Value, SourceFailure>
    @usableFromInline typealias Failure = SourceFailure

    @inlinable
    static func complete(
        _ future: Future<Value, SourceFailure>, from result: Result<Source, SourceFailure>,
        with transform: (Source) -> Result<Value, SourceFailure>
    ) {
        future.complete(result.flatMap(transform))
    }
}
