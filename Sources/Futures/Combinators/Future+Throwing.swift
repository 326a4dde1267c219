// SimpleFutures' combinators for untyped futures (`Future<T, any Error>`, SimpleFutures' `Future<T>`).
//
// Every form carries `context:` and `cancelToken:` with defaults, so an unlabelled call with a
// non-throwing closure still picks the BrightFutures form (it needs fewer default arguments, and these
// are `@_disfavoredOverload`). A throwing closure can only match these.

extension Future where E == any Error {
    /// The `onCancel` action of a combinator that writes `future`: quiet the chain, then fail it.
    ///
    /// The action is stored in a registration that the token itself holds, so it holds the token weakly:
    /// a strong capture would be a cycle (token → registration → action → token) that keeps a dropped
    /// token and its last registrations alive.
    @inlinable
    static func cancelling<U>(_ future: Future<U, any Error>, _ cancelToken: CancelToken) -> (@Sendable () -> Void)? {
        if cancelToken.isUnused { return nil }
        return { [weak cancelToken] in
            if let cancelToken { future.cancel(cancelToken) }
            future.complete(.failure(FuturesError.cancelled))
        }
    }

    /// Derives a future from this one as ``derive(_:step:file:line:_:)`` does, with SimpleFutures'
    /// `CancelToken`, for a step written in the library (the `SimpleFutures` face's continuations, which
    /// complete a future of their own type). With a token in use, `body` is
    /// registered so that `cancel(cancelToken)` unregisters it and fails the returned future (see
    /// ``cancelling(_:_:)``); the returned future is one consumer of this one either way.
    ///
    /// `failingOnCancel: false` (the `SimpleFutures` module's form) only unregisters `body`: the returned
    /// future then stays pending, as SimpleFutures left it.
    @inlinable
    package func deriveWithToken<U>(
        _ context: ExecutionContext,
        _ cancelToken: CancelToken,
        failingOnCancel: Bool = true,
        step: StaticString,
        file: StaticString,
        line: UInt,
        _ body: @escaping @Sendable (Result<T, any Error>, Future<U, any Error>) -> Void
    ) -> Future<U, any Error> {
        if cancelToken.isUnused { return derive(context, step: step, file: file, line: line, body) }
        let future = Future<U, any Error>()
        future.depend(
            on: self, context, link: .step(step, file: file, line: line), cancelToken: cancelToken,
            onCancel: failingOnCancel ? Self.cancelling(future, cancelToken) : nil
        ) { result in body(result, future) }
        return future
    }

    /// Derives a future from this one by the combinator `form`, as
    /// ``derive(_:with:_:step:file:line:)-(_,(Form.Input)->Form.Output,_,_,_,_)`` does, with SimpleFutures'
    /// `CancelToken` (see ``deriveWithToken(_:orWhenPending:_:_:step:file:line:)``).
    @inlinable
    func deriveWithToken<Form: TransformForm>(
        _ form: Form.Type,
        with closure: @escaping @Sendable (Form.Input) -> Form.Output,
        _ context: ExecutionContext,
        _ cancelToken: CancelToken,
        step: StaticString,
        file: StaticString,
        line: UInt
    ) -> Future<Form.Value, any Error>
    where Form.Source == T, Form.SourceFailure == any Error, Form.Failure == any Error {
        deriveWithToken(
            { Form.outcome(of: $0, with: closure) }, orWhenPending: TransformFuture<Form>(transform: closure), context,
            cancelToken, step: step, file: file, line: line)
    }

    /// Derives a future from this one by the combinator `form`, whose closure may throw, with SimpleFutures'
    /// `CancelToken` (see ``deriveWithToken(_:orWhenPending:_:_:step:file:line:)``).
    @inlinable
    func deriveWithToken<Form: ThrowingTransformForm>(
        _ form: Form.Type,
        with closure: @escaping @Sendable (Form.Input) throws -> Form.Output,
        _ context: ExecutionContext,
        _ cancelToken: CancelToken,
        step: StaticString,
        file: StaticString,
        line: UInt
    ) -> Future<Form.Value, any Error> where Form.Source == T, Form.SourceFailure == any Error {
        deriveWithToken(
            { Form.outcome(of: $0, with: closure) }, orWhenPending: ThrowingTransformFuture<Form>(transform: closure),
            context, cancelToken, step: step, file: file, line: line)
    }

    /// Derives a future from this one by the combinator `form`, as
    /// ``derive(_:with:_:step:file:line:)-(_,(Form.Input)->Future<Form.Value,Form.Failure>,_,_,_,_)`` does,
    /// with SimpleFutures' `CancelToken` (see ``deriveWithToken(_:orWhenPending:_:_:step:file:line:)``).
    @inlinable
    func deriveWithToken<Form: FollowForm>(
        _ form: Form.Type,
        with closure: @escaping @Sendable (Form.Input) -> Future<Form.Value, any Error>,
        _ context: ExecutionContext,
        _ cancelToken: CancelToken,
        step: StaticString,
        file: StaticString,
        line: UInt
    ) -> Future<Form.Value, any Error>
    where Form.Source == T, Form.SourceFailure == any Error, Form.Failure == any Error {
        deriveWithToken(
            { Form.outcome(of: $0, with: closure) }, orWhenPending: FollowFuture<Form>(next: closure), context,
            cancelToken, step: step, file: file, line: line)
    }

    /// ``derive(_:orWhenPending:_:step:file:line:)`` with SimpleFutures' `CancelToken`: with no token in
    /// use, exactly that; with one, the derived future `pending` makes is registered so that
    /// `cancel(cancelToken)` takes its closure back and fails it (see ``cancelling(_:_:)``). The returned
    /// future is one consumer of this one either way.
    @inlinable
    func deriveWithToken<U: Sendable, Derived: Future<U, any Error> & DerivedStep<Result<T, any Error>>>(
        _ outcome: (Result<T, any Error>) -> DerivedOutcome<U, any Error>,
        orWhenPending pending: @autoclosure () -> Derived,
        _ context: ExecutionContext,
        _ cancelToken: CancelToken,
        step: StaticString,
        file: StaticString,
        line: UInt
    ) -> Future<U, any Error> {
        if cancelToken.isUnused {
            return derive(outcome, orWhenPending: pending(), context, step: step, file: file, line: line)
        }
        let future = pending()
        future.depend(
            on: self, context, link: .step(step, file: file, line: line), cancelToken: cancelToken,
            onCancel: Self.cancelling(future, cancelToken)
        ) { result in future.fire(result) }
        return future
    }

    /// Transforms the value with a closure that may throw (SimpleFutures' `map`).
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `mapping` from running; the returned
    ///     future then fails with ``FuturesError/cancelled``.
    ///   - mapping: Receives the value; what it throws fails the returned future. Does not run on failure.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future of the mapped value, or of this future's (or `mapping`'s) error.
    @inlinable
    @_disfavoredOverload
    package func map<M>(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        mapping: @escaping @Sendable (T) throws -> M,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<M, any Error> {
        deriveWithToken(
            ThrowingMapForm<T, M>.self, with: mapping, context, cancelToken, step: "map", file: file, line: line)
    }

    /// Continues with the future a closure returns for the value; the closure may throw (SimpleFutures'
    /// `flatMap`). Use it to run asynchronous requests one after another.
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `mapping` from running; the returned
    ///     future then fails with ``FuturesError/cancelled``.
    ///   - mapping: Receives the value and returns the next future; what it throws fails the result.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future completed by `mapping`'s future, or failed with this future's error.
    @inlinable
    @_disfavoredOverload
    package func flatMap<M>(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        mapping: @escaping @Sendable (T) throws -> Future<M, any Error>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<M, any Error> {
        deriveWithToken(
            FlatMapForm<T, any Error, M>.self, with: { value in Future<M, any Error>.catching({ try mapping(value) }) },
            context,
            cancelToken, step: "flatMap", file: file, line: line)
    }

    /// Keeps the value only if `filter` accepts it (SimpleFutures' `withFilter`).
    ///
    /// - Parameters:
    ///   - context: Where `filter` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `filter` from running; the returned
    ///     future then fails with ``FuturesError/cancelled``.
    ///   - filter: Receives the value. Returning `false` fails the returned future with
    ///     ``FuturesError/noSuchElement``; throwing fails it with the thrown error. A failure of this
    ///     future passes through unchanged.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future with the accepted value.
    @inlinable
    package func withFilter(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        filter: @escaping @Sendable (T) throws -> Bool,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, any Error> {
        deriveWithToken(
            ThrowingFilterForm<T>.self, with: filter, context, cancelToken, step: "withFilter", file: file, line: line)
    }

    /// Runs `completion` with the value, then completes the returned future with this future's result
    /// (SimpleFutures' `andThen`, which passes the value rather than BrightFutures' `Result`).
    ///
    /// An unlabelled `andThen { … }` whose closure compiles for both forms picks BrightFutures'
    /// `andThen(context:callback:)` (which passes a `Result`); pass `cancelToken:` to choose this one.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `completion` from running; the
    ///     returned future then fails with ``FuturesError/cancelled``.
    ///   - completion: Receives the value; does not run on failure.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future with this future's result, completed after `completion` returned.
    @inlinable
    @_disfavoredOverload
    package func andThen(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        completion: @escaping @Sendable (T) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, any Error> {
        deriveWithToken(
            AndThenForm<T, any Error>.self,
            with: { result in if case .success(let value) = result { completion(value) } },
            context, cancelToken, step: "andThen", file: file, line: line)
    }

    /// Replaces a failure with the value `recovery` returns; `recovery` may rethrow (SimpleFutures' `recover`).
    ///
    /// - Parameters:
    ///   - context: Where `recovery` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `recovery` from running; the returned
    ///     future then fails with ``FuturesError/cancelled``.
    ///   - recovery: Receives the error; what it throws fails the returned future. Does not run on success.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future with this future's value or the recovered one.
    @inlinable
    @_disfavoredOverload
    package func recover(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        recovery: @escaping @Sendable (any Error) throws -> T,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, any Error> {
        deriveWithToken(
            ThrowingRecoverForm<T>.self, with: recovery, context, cancelToken, step: "recover", file: file, line: line)
    }

    /// Replaces a failure with the future `recovery` returns (SimpleFutures' `recoverWith`).
    ///
    /// - Parameters:
    ///   - context: Where `recovery` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `recovery` from running; the returned
    ///     future then fails with ``FuturesError/cancelled``.
    ///   - recovery: Receives the error and returns a future to continue with; what it throws fails the
    ///     returned future. Does not run on success.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future with this future's value or the recovery future's result.
    @inlinable
    @_disfavoredOverload
    package func recoverWith(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        recovery: @escaping @Sendable (any Error) throws -> Future<T, any Error>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, any Error> {
        deriveWithToken(
            RecoverWithForm<T, any Error, any Error>.self, with: { error in Future.catching({ try recovery(error) }) },
            context, cancelToken, step: "recoverWith", file: file, line: line)
    }

    /// Transforms the error with `mapping`; a success passes through (SimpleFutures' `mapError`).
    ///
    /// - Parameters:
    ///   - context: Where `mapping` runs; ``defaultContext()`` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this future stops `mapping` from running; the returned
    ///     future then fails with ``FuturesError/cancelled``.
    ///   - mapping: Receives the error and returns the one to fail with.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future with this future's value or the mapped error.
    @inlinable
    @_disfavoredOverload
    package func mapError(
        context: ExecutionContext = defaultContext(),
        cancelToken: CancelToken = .unused,
        mapping: @escaping @Sendable (any Error) -> any Error,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, any Error> {
        deriveWithToken(
            MapErrorForm<T, any Error, any Error>.self, with: mapping, context, cancelToken, step: "mapError",
            file: file,
            line: line)
    }

    /// Creates a future that completes with `dependent`'s result (SimpleFutures' `init(context:dependent:)`).
    ///
    /// It is one consumer of `dependent`: a cancellation request on it is passed on to `dependent` as
    /// that consumer's ask. It is a step named `Future` at the caller's line in failure traces and the
    /// pending-futures report.
    ///
    /// - Parameters:
    ///   - context: Where the hand-over callback runs; ``defaultContext()`` if omitted.
    ///   - dependent: The future whose result this one takes.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    @inlinable
    package convenience init(
        context: ExecutionContext = defaultContext(),
        dependent: Future<T, any Error>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init()
        depend(on: dependent, context, link: .step("Future", file: file, line: line)) { [self] result in
            self.complete(result)
        }
    }
}

extension Promise {
    /// Completes this promise with `future`'s result once it has one (SimpleFutures' form).
    ///
    /// - Parameters:
    ///   - context: Where the hand-over runs; ``defaultContext()`` if omitted.
    ///   - future: The future whose result completes this promise. If the promise was completed
    ///     meanwhile, the later result is ignored and reported, as with ``complete(_:file:line:)``.
    @inlinable
    package func completeWith(context: ExecutionContext = defaultContext(), future: Future<T, E>) {
        self.future.depend(on: future, context) { [self] result in self.complete(result) }
    }
}

extension Future where E == any Error {
    /// Completes this future with the result of the future `makeFuture` returns, or fails it with the
    /// error `makeFuture` throws. Shared by the throwing continuations (`flatMap`, `recoverWith`, Bolts'
    /// task-returning blocks).
    /// The future `makeFuture` returns, or a future failed with what it throws: the future a throwing
    /// continuation (`flatMap`, `recoverWith`) follows.
    @inlinable
    static func catching(_ makeFuture: () throws -> Future<T, any Error>) -> Future<T, any Error> {
        do {
            return try makeFuture()
        } catch {
            return Future(error: error)
        }
    }

    @inlinable
    package func completeWith(_ makeFuture: () throws -> Future<T, any Error>) {
        do {
            completeWith(try makeFuture())
        } catch {
            complete(.failure(error))
        }
    }
}

/// The throwing `map`'s work: the value the closure returns for the value, or what it throws; a failure
/// passed on.
@usableFromInline
enum ThrowingMapForm<Source: Sendable, Value: Sendable>: ThrowingTransformForm {
    @usableFromInline typealias SourceFailure = any Error
    @usableFromInline typealias Failure = any Error
    @usableFromInline typealias Input = Source
    @usableFromInline typealias Output = Value

    @inlinable
    static func outcome(
        of result: Result<Source, any Error>, with transform: (Source) throws -> Value
    ) -> DerivedOutcome<Value, any Error> {
        switch result {
        case .success(let value):
            do { return .result(.success(try transform(value))) } catch { return .result(.failure(error)) }
        case .failure(let error):
            return .result(.failure(error))
        }
    }
}

/// The throwing `recover`'s work: the value the closure returns for the error, or what it throws; a value
/// passed on.
@usableFromInline
enum ThrowingRecoverForm<Source: Sendable>: ThrowingTransformForm {
    @usableFromInline typealias Value = Source
    @usableFromInline typealias SourceFailure = any Error
    @usableFromInline typealias Failure = any Error
    @usableFromInline typealias Input = any Error
    @usableFromInline typealias Output = Source

    @inlinable
    static func outcome(
        of result: Result<Source, any Error>, with transform: (any Error) throws -> Source
    ) -> DerivedOutcome<Source, any Error> {
        switch result {
        case .success(let value):
            return .result(.success(value))
        case .failure(let error):
            do { return .result(.success(try transform(error))) } catch { return .result(.failure(error)) }
        }
    }
}

/// `withFilter`'s work: the value when the closure accepts it, else ``FuturesError/noSuchElement`` (or what
/// the closure throws); a failure passed on.
@usableFromInline
enum ThrowingFilterForm<Source: Sendable>: ThrowingTransformForm {
    @usableFromInline typealias Value = Source
    @usableFromInline typealias SourceFailure = any Error
    @usableFromInline typealias Failure = any Error
    @usableFromInline typealias Input = Source
    @usableFromInline typealias Output = Bool

    @inlinable
    static func outcome(
        of result: Result<Source, any Error>, with transform: (Source) throws -> Bool
    ) -> DerivedOutcome<Source, any Error> {
        switch result {
        case .success(let value):
            do {
                return .result(try transform(value) ? .success(value) : .failure(FuturesError.noSuchElement))
            } catch {
                return .result(.failure(error))
            }
        case .failure(let error):
            return .result(.failure(error))
        }
    }
}
