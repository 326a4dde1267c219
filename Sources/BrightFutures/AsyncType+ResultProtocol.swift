// BrightFutures' combinators, declared where BrightFutures declares them: on every `AsyncType` whose
// value is a `ResultProtocol`. Each forwards to the core's method of the same name on `coreFuture`; on a
// concrete `Future` the core's method itself is chosen (these are disfavoured overloads, or, for the
// `flatMap`s taking a `Future`, members of a protocol extension, which rank below the class's own), so
// they serve generic code (`extension AsyncType where Value: ResultProtocol, Value.Value: Sendable { … }`).
//
// The `flatMap`s taking a `Future` are not disfavoured and those taking a `Result` are, as in the core:
// where a closure that states no type returns `.init(value:)` and `.init(error:)`, both type-check, and
// the two solutions rank equal (`Future.init(value:)` above `Result`'s, since a future's value must be
// `Sendable`, `Result.init(error:)` above `Future`'s, a designated initializer over a convenience one);
// the disfavoured `Result` overload breaks the tie.

extension AsyncType where Value: ResultProtocol {
    /// `true` once completed with a success.
    @_disfavoredOverload
    public var isSuccess: Bool {
        if case .success? = result?.result { return true }
        return false
    }

    /// `true` once completed with a failure.
    @_disfavoredOverload
    public var isFailure: Bool {
        if case .failure? = result?.result { return true }
        return false
    }

    /// The value once completed with a success, else `nil`.
    @_disfavoredOverload
    public var value: Value.Value? {
        if case .success(let value)? = result?.result { return value }
        return nil
    }

    /// The error once completed with a failure, else `nil`.
    ///
    /// Not disfavoured, unlike the other members here: the core declares a future's `error` in a
    /// disfavoured protocol extension (so that a subclass's own `error` wins), and two disfavoured
    /// candidates would be ambiguous. Both read the same failure.
    public var error: Value.Error? {
        if case .failure(let error)? = result?.result { return error }
        return nil
    }

    /// Registers `callback` to run with the value on success, on `context`; it never runs on failure.
    @_disfavoredOverload
    @discardableResult
    public func onSuccess(
        _ context: @escaping ExecutionContext = defaultContext(),
        callback: @escaping @Sendable (Value.Value) -> Void
    ) -> Self {
        onComplete(context) { result in
            if case .success(let value) = result.result { callback(value) }
        }
    }

    /// Registers `callback` to run with the error on failure, on `context`; it never runs on success.
    @_disfavoredOverload
    @discardableResult
    public func onFailure(
        _ context: @escaping ExecutionContext = defaultContext(),
        callback: @escaping @Sendable (Value.Error) -> Void
    ) -> Self {
        onComplete(context) { result in
            if case .failure(let error) = result.result { callback(error) }
        }
    }
}

extension AsyncType where Value: ResultProtocol, Value.Value: Sendable {
    /// This value as a core future: the future itself for a `Future`. Nothing runs on a context: it
    /// completes on the thread that completes this value.
    var coreFuture: Future<Value.Value, Value.Error> {
        if let future = self as? Future<Value.Value, Value.Error> { return future }
        return Future { complete in
            onComplete(immediateExecutionContext) { complete($0.result) }
        }
    }

    /// The core's `Future.flatMap(_:f:)`: `f` runs on `context` with the value and the result follows the
    /// future it returns; a failure passes through and `f` does not run. A cancellation request travels
    /// upstream as in the core.
    public func flatMap<U>(
        _ context: @escaping ExecutionContext,
        f: @escaping @Sendable (Value.Value) -> Future<U, Value.Error>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, Value.Error> {
        coreFuture.flatMap(context, f: f, file: file, line: line)
    }

    /// `flatMap(_:f:)` on `defaultContext()`.
    public func flatMap<U>(
        _ f: @escaping @Sendable (Value.Value) -> Future<U, Value.Error>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, Value.Error> {
        coreFuture.flatMap(Futures.defaultContext(), f: f, file: file, line: line)
    }

    /// The core's `Future.flatMap(_:f:)` with a `Result`: `f` runs on `context` with the value; a failure
    /// passes through and `f` does not run.
    @_disfavoredOverload
    public func flatMap<U>(
        _ context: @escaping ExecutionContext,
        f: @escaping @Sendable (Value.Value) -> Result<U, Value.Error>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, Value.Error> {
        coreFuture.flatMap(context, f: f, file: file, line: line)
    }

    /// `flatMap(_:f:)` with a `Result`, on `defaultContext()`.
    @_disfavoredOverload
    public func flatMap<U>(
        _ f: @escaping @Sendable (Value.Value) -> Result<U, Value.Error>, file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, Value.Error> {
        coreFuture.flatMap(Futures.defaultContext(), f: f, file: file, line: line)
    }

    /// `map(_:f:)` on `defaultContext()`.
    @_disfavoredOverload
    public func map<U>(
        _ f: @escaping @Sendable (Value.Value) -> U, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<U, Value.Error> {
        coreFuture.map(Futures.defaultContext(), f: f, file: file, line: line)
    }

    /// The core's `Future.map(_:f:)`: `f` runs on `context` with the
    /// value; a failure passes through and `f` does not run.
    @_disfavoredOverload
    public func map<U>(
        _ context: @escaping ExecutionContext,
        f: @escaping @Sendable (Value.Value) -> U,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, Value.Error> {
        coreFuture.map(context, f: f, file: file, line: line)
    }

    /// The core's `recover(context:task:)`: on failure, `task` runs on `c` and its value succeeds the
    /// returned future; a success passes through.
    @_disfavoredOverload
    public func recover(
        context c: @escaping ExecutionContext = defaultContext(),
        task: @escaping @Sendable (Value.Error) -> Value.Value,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value.Value, Never> {
        coreFuture.recover(context: c, task: task, file: file, line: line)
    }

    /// The core's `recoverWith(context:task:)`: on failure, `task` runs on `c` and the returned future
    /// follows the future it returns; a success passes through.
    @_disfavoredOverload
    public func recoverWith<E1>(
        context c: @escaping ExecutionContext = defaultContext(),
        task: @escaping @Sendable (Value.Error) -> Future<Value.Value, E1>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value.Value, E1> {
        coreFuture.recoverWith(context: c, task: task, file: file, line: line)
    }

    /// `mapError(_:f:)` on `defaultContext()`.
    @_disfavoredOverload
    public func mapError<E1>(
        _ f: @escaping @Sendable (Value.Error) -> E1, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value.Value, E1> {
        coreFuture.mapError(Futures.defaultContext(), f: f, file: file, line: line)
    }

    /// The core's `Future.mapError(_:f:)`: `f` runs on `context`
    /// with the error; a success passes through and `f` does not run.
    @_disfavoredOverload
    public func mapError<E1>(
        _ context: @escaping ExecutionContext,
        f: @escaping @Sendable (Value.Error) -> E1,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value.Value, E1> {
        coreFuture.mapError(context, f: f, file: file, line: line)
    }

    /// The core's `Future.zip(_:file:line:)`: both values once both succeed; the first failure.
    @_disfavoredOverload
    public func zip<U>(
        _ that: Future<U, Value.Error>, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<(Value.Value, U), Value.Error> {
        coreFuture.zip(that, file: file, line: line)
    }

    /// The core's `Future.filter(_:)`: fails with `BrightFuturesError/noSuchElement` when `p`
    /// rejects the value (`p` runs on the completing thread).
    @_disfavoredOverload
    public func filter(
        _ p: @escaping @Sendable (Value.Value) -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value.Value, BrightFuturesError<Value.Error>> {
        coreFuture.filter(p, file: file, line: line)
    }

    /// The core's `Future.forceType()`: casts the value and the error (a failed cast traps).
    @_disfavoredOverload
    public func forceType<U, E1>(file: StaticString = #fileID, line: UInt = #line) -> Future<U, E1> {
        coreFuture.forceType(file: file, line: line)
    }

    /// The core's `Future.asVoid()`: the same outcome without the value.
    @_disfavoredOverload
    public func asVoid(file: StaticString = #fileID, line: UInt = #line) -> Future<Void, Value.Error> {
        coreFuture.asVoid(file: file, line: line)
    }
}

extension AsyncType
where
    Value: ResultProtocol, Value.Value: AsyncType, Value.Value.Value.Value: Sendable, Value.Value.Value: ResultProtocol,
    Value.Error == Value.Value.Value.Error
{
    /// The inner value's result once both have completed; an outer failure wins. Nothing runs on a
    /// context: the result completes on the thread that completes the inner value (as the core's
    /// `Future.flatten(file:line:)`, which a `Future` of `Future`s uses, naming this step at the caller's
    /// `file` and `line`).
    @_disfavoredOverload
    public func flatten(
        file: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value.Value.Value.Value, Value.Error> {
        if let outer = self as? any FlattenLinking,
            let flattened = outer.linkedFlatten(file: file, line: line) as? Future<Value.Value.Value.Value, Value.Error>
        {
            return flattened
        }
        return Future { complete in
            onComplete(immediateExecutionContext) { outer in
                switch outer.result {
                case .success(let inner): inner.onComplete(immediateExecutionContext) { complete($0.result) }
                case .failure(let error): complete(.failure(error))
                }
            }
        }
    }
}

extension AsyncType where Value: ResultProtocol, Value.Value: Sendable, Value.Error == Never {
    /// The same success with an error type that never occurs (the core's `Future.promoteError()`).
    @_disfavoredOverload
    public func promoteError<E>(file: StaticString = #fileID, line: UInt = #line) -> Future<Value.Value, E> {
        coreFuture.promoteError(file: file, line: line)
    }
}

extension AsyncType where Value: ResultProtocol, Value.Value: Sendable, Value.Error == BrightFuturesError<Never> {
    /// Every case kept, with any `external` type (the core's `promoteError()` of `BrightFuturesError<Never>`),
    /// recorded as a step at the caller's `file` and `line`.
    @_disfavoredOverload
    public func promoteError<E>(
        file: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value.Value, BrightFuturesError<E>> {
        coreFuture.promoteError(file: file, line: line)
    }
}

extension AsyncType where Value: ResultProtocol, Value.Value == Never {
    /// The same failure with a value type that never occurs (the core's `Future.promoteValue()`).
    @_disfavoredOverload
    public func promoteValue<T>(file: StaticString = #fileID, line: UInt = #line) -> Future<T, Value.Error> {
        coreFuture.promoteValue(file: file, line: line)
    }
}
