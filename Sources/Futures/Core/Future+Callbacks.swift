extension Future {
    /// Registers `callback` to run with the result once the future completes.
    ///
    /// - Parameters:
    ///   - context: Where `callback` runs; ``defaultContext()`` if omitted.
    ///   - callback: Receives the result, exactly once, on `context`. Callbacks of one future on the same
    ///     serial context run in registration order; none waits for a callback on another context. If
    ///     the future is already completed, `callback` runs (immediate context) or is handed to `context`
    ///     before this method returns.
    /// - Returns: This future, to chain further callbacks.
    @inlinable
    @discardableResult
    public func onComplete(
        _ context: ExecutionContext = defaultContext(),
        callback: @escaping @Sendable (Result<T, E>) -> Void
    ) -> Self {
        // Completed, on the immediate context: run it here, through the trampoline, without storing it
        // (no lock for a settled success; see `ifCompleted`).
        if context.isImmediate, ifCompleted({ callback($0) }) != nil { return self }
        whenComplete(context, callback)
        return self
    }

    /// Registers `callback` to run with the value if the future succeeds; never runs on failure.
    ///
    /// - Parameters:
    ///   - context: Where `callback` runs; ``defaultContext()`` if omitted.
    ///   - callback: Receives the value, exactly once, on `context`.
    /// - Returns: This future.
    @inlinable
    @discardableResult
    public func onSuccess(
        _ context: ExecutionContext = defaultContext(),
        callback: @escaping @Sendable (T) -> Void
    ) -> Self {
        // Completed, on the immediate context: run it here, without the wrapper closure (an allocation).
        if context.isImmediate {
            let ran: Void? = ifCompleted { result in
                if case .success(let value) = result { callback(value) }
            }
            if ran != nil { return self }
        }
        whenComplete(context) { result in
            if case .success(let value) = result { callback(value) }
        }
        return self
    }

    /// Registers `callback` to run with the error if the future fails; never runs on success.
    ///
    /// - Parameters:
    ///   - context: Where `callback` runs; ``defaultContext()`` if omitted.
    ///   - callback: Receives the error, exactly once, on `context`.
    /// - Returns: This future.
    @inlinable
    @discardableResult
    public func onFailure(
        _ context: ExecutionContext = defaultContext(),
        callback: @escaping @Sendable (E) -> Void
    ) -> Self {
        // Completed, on the immediate context: run it here, without the wrapper closure (an allocation).
        if context.isImmediate {
            let ran: Void? = ifCompleted { result in
                if case .failure(let error) = result { callback(error) }
            }
            if ran != nil { return self }
        }
        whenComplete(context) { result in
            if case .failure(let error) = result { callback(error) }
        }
        return self
    }

    /// Runs `callback` for its side effect, then completes the returned future with this future's result.
    ///
    /// Use it to order side effects: the next `andThen` sees the effects of this one.
    ///
    /// The context comes first, unlabelled, as for `map` and `flatMap`:
    /// `future.andThen(queue.context) { … }`. BrightFutures' spelling, `andThen(context: queue.context)
    /// { … }`, is the same method (``andThen(context:callback:file:line:)-(ExecutionContext,_,_,_)``).
    ///
    /// - Parameters:
    ///   - context: Where `callback` runs; ``defaultContext()`` if omitted.
    ///   - callback: Receives the result; its return value is ignored.
    ///   - file: The caller's file, for ``FailureTrace`` (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` (leave the default).
    /// - Returns: A future with the same result, completed after `callback` has returned.
    @inlinable
    public func andThen(
        _ context: ExecutionContext = defaultContext(),
        callback: @escaping @Sendable (Result<T, E>) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E> {
        derive(AndThenForm<T, E>.self, with: callback, context, step: "andThen", file: file, line: line)
    }

    /// BrightFutures' spelling of ``andThen(_:callback:file:line:)-(ExecutionContext,_,_,_)``, the context labelled `context:`:
    /// the same method, with the same behaviour.
    ///
    /// `callback` runs on `context`; the returned future completes with this future's result after it
    /// has returned.
    @inlinable
    public func andThen(
        context: ExecutionContext,
        callback: @escaping @Sendable (Result<T, E>) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E> {
        andThen(context, callback: callback, file: file, line: line)
    }
}

/// `andThen`'s work: the callback run with the result, which passes on unchanged.
@usableFromInline
enum AndThenForm<Source: Sendable, SourceFailure: Error>: TransformForm {
    @usableFromInline typealias Value = Source
    @usableFromInline typealias Failure = SourceFailure
    @usableFromInline typealias Input = Result<Source, SourceFailure>
    @usableFromInline typealias Output = Void

    @inlinable
    static func outcome(
        of result: Result<Source, SourceFailure>, with callback: (Input) -> Output
    ) -> DerivedOutcome<Source, SourceFailure> {
        callback(result)
        return .result(result)
    }
}
