// BrightFutures' contexts were plain functions, `(@escaping () -> Void) -> Void`. These overloads accept
// such a function wherever a context is expected. They have no default argument on purpose: the
// `ExecutionContext` forms keep the defaults, so `future.onSuccess { }` stays unambiguous. The forms that
// make a future take the caller's `file` and `line` and pass them on, so that the step they make is named
// at the caller's line, in failure traces and the pending-futures report alike.

extension Future {
    /// Registers `callback` to run with the result, on the context function `context`.
    ///
    /// Same as `onComplete(_:callback:)` with `ExecutionContext(context)`. `context` must run every task
    /// it is given (see ``ExecutionContext/init(_:)``): a dropped task also holds back the callbacks
    /// registered after it on this future.
    @inlinable
    @discardableResult
    public func onComplete(
        _ context: @escaping ExecutionContextFunction,
        callback: @escaping @Sendable (Result<T, E>) -> Void
    ) -> Self {
        onComplete(ExecutionContext(context), callback: callback)
    }

    /// Registers `callback` to run with the value on success, on the context function `context`.
    ///
    /// Same as `onSuccess(_:callback:)` with `ExecutionContext(context)`; never runs on failure.
    @inlinable
    @discardableResult
    public func onSuccess(
        _ context: @escaping ExecutionContextFunction,
        callback: @escaping @Sendable (T) -> Void
    ) -> Self {
        onSuccess(ExecutionContext(context), callback: callback)
    }

    /// Registers `callback` to run with the error on failure, on the context function `context`.
    ///
    /// Same as `onFailure(_:callback:)` with `ExecutionContext(context)`; never runs on success.
    @inlinable
    @discardableResult
    public func onFailure(
        _ context: @escaping ExecutionContextFunction,
        callback: @escaping @Sendable (E) -> Void
    ) -> Self {
        onFailure(ExecutionContext(context), callback: callback)
    }

    /// BrightFutures' spelling of `andThen(_:callback:)` with a context function, labelled `context:`.
    ///
    /// Same as `andThen(_:callback:)` with `ExecutionContext(context)`.
    @inlinable
    public func andThen(
        context: @escaping ExecutionContextFunction,
        callback: @escaping @Sendable (Result<T, E>) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E> {
        andThen(ExecutionContext(context), callback: callback, file: file, line: line)
    }

    /// Transforms the value with `f`, run on the context function `context`; a failure passes through
    /// and `f` does not run.
    @inlinable
    public func map<U>(
        _ context: @escaping ExecutionContextFunction,
        f: @escaping @Sendable (T) -> U,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, E> {
        map(ExecutionContext(context), f: f, file: file, line: line)
    }

    /// Continues with the future `f` returns for the value, `f` running on the context function `context`.
    ///
    /// A failure of this future (then `f` does not run) or of `f`'s future fails the returned future.
    @inlinable
    public func flatMap<U>(
        _ context: @escaping ExecutionContextFunction,
        f: @escaping @Sendable (T) -> Future<U, E>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, E> {
        flatMap(ExecutionContext(context), f: f, file: file, line: line)
    }

    /// Continues with the `Result` that `f`, run on the context function `context`, returns for the value.
    ///
    /// A failure of this future passes through and `f` does not run.
    @inlinable
    public func flatMap<U>(
        _ context: @escaping ExecutionContextFunction,
        f: @escaping @Sendable (T) -> Result<U, E>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, E> {
        flatMap(ExecutionContext(context), f: f, file: file, line: line)
    }

    /// Transforms the error with `f`, run on the context function `context`; a success passes through
    /// and `f` does not run.
    @inlinable
    public func mapError<E1: Error>(
        _ context: @escaping ExecutionContextFunction,
        f: @escaping @Sendable (E) -> E1,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E1> {
        mapError(ExecutionContext(context), f: f, file: file, line: line)
    }
}
