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
        derive(MapForm<T, E, U>.self, with: f, context, step: "map", file: file, line: line)
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
        derive(FlatMapForm<T, E, U>.self, with: f, context, step: "flatMap", file: file, line: line)
    }

    /// Continues with the `Result` that `f` returns for the value; a failure passes through.
    ///
    /// `f` runs on ``defaultContext()``.
    ///
    /// Disfavoured: where a closure that states no type type-checks both as returning a `Future` and as
    /// returning a `Result` (`return .init(value: v)` and `return .init(error: e)`), the `Future`
    /// overload is chosen. Otherwise the two solutions tie and the call is ambiguous: `Future`'s
    /// `init(value:)` ranks above `Result`'s (a `Result`'s value need not be `Sendable`, a future's
    /// must), `Result`'s `init(error:)` above `Future`'s (a designated initializer over a convenience one).
    @inlinable
    @_disfavoredOverload
    public func flatMap<U>(
        _ f: @escaping @Sendable (T) -> Result<U, E>, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<U, E> {
        flatMap(defaultContext(), f: f, file: file, line: line)
    }

    /// Continues with the `Result` that `f`, run on `context`, returns for the value.
    ///
    /// Disfavoured, as `flatMap(_:file:line:)` with a `Result` is: where a closure that states no type
    /// returns `.init(value:)` or `.init(error:)`, the overload taking a `Future` is chosen.
    @inlinable
    @_disfavoredOverload
    public func flatMap<U>(
        _ context: ExecutionContext, f: @escaping @Sendable (T) -> Result<U, E>,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Future<U, E> {
        derive(FlatMapResultForm<T, E, U>.self, with: f, context, step: "flatMap", file: file, line: line)
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
        derive(MapErrorForm<T, E, E1>.self, with: f, context, step: "mapError", file: file, line: line)
    }
}

/// `map`'s work: the value transformed, a failure passed on.
@usableFromInline
enum MapForm<Source: Sendable, SourceFailure: Error, Value: Sendable>: TransformForm {
    @usableFromInline typealias Failure = SourceFailure
    @usableFromInline typealias Input = Source
    @usableFromInline typealias Output = Value

    @inlinable
    static func outcome(
        of result: Result<Source, SourceFailure>, with transform: (Input) -> Output
    ) -> DerivedOutcome<Value, SourceFailure> {
        .result(result.map(transform))
    }
}

/// `flatMap`'s work: the future the closure returns for the value followed, a failure passed on.
@usableFromInline
package enum FlatMapForm<Source: Sendable, SourceFailure: Error, Value: Sendable>: FollowForm {
    @usableFromInline package typealias Failure = SourceFailure
    @usableFromInline package typealias Input = Source

    @inlinable
    package static func outcome(
        of result: Result<Source, SourceFailure>, with next: (Input) -> Future<Value, Failure>
    ) -> DerivedOutcome<Value, SourceFailure> {
        switch result {
        case .success(let value): return .follow(next(value))
        case .failure(let error): return .result(.failure(error))
        }
    }
}

/// `mapError`'s work: the error transformed, a value passed on.
@usableFromInline
enum MapErrorForm<Source: Sendable, SourceFailure: Error, Failure: Error>: TransformForm {
    @usableFromInline typealias Value = Source
    @usableFromInline typealias Input = SourceFailure
    @usableFromInline typealias Output = Failure

    @inlinable
    static func outcome(
        of result: Result<Source, SourceFailure>, with transform: (Input) -> Output
    ) -> DerivedOutcome<Source, Failure> {
        .result(result.mapError(transform))
    }
}

/// The work of `flatMap` with a closure that returns a `Result`: the closure's result for the value, a
/// failure passed on.
@usableFromInline
enum FlatMapResultForm<Source: Sendable, SourceFailure: Error, Value: Sendable>: TransformForm {
    @usableFromInline typealias Failure = SourceFailure
    @usableFromInline typealias Input = Source
    @usableFromInline typealias Output = Result<Value, SourceFailure>

    @inlinable
    static func outcome(
        of result: Result<Source, SourceFailure>, with transform: (Input) -> Output
    ) -> DerivedOutcome<Value, SourceFailure> {
        .result(result.flatMap(transform))
    }
}

/// The work of a combinator that turns the whole result into another (the casts, `filter`, `promoteValue`):
/// the closure's result.
@usableFromInline
enum ResultForm<Source: Sendable, SourceFailure: Error, Value: Sendable, Failure: Error>: TransformForm {
    @usableFromInline typealias Input = Result<Source, SourceFailure>
    @usableFromInline typealias Output = Result<Value, Failure>

    @inlinable
    static func outcome(
        of result: Result<Source, SourceFailure>, with transform: (Input) -> Output
    ) -> DerivedOutcome<Value, Failure> {
        .result(transform(result))
    }
}
