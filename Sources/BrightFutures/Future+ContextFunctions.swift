// BrightFutures' contexts are functions (this module's `ExecutionContext`). These overloads accept such a
// function wherever the core takes its context value, and wrap it with `Futures.ExecutionContext.init(_:)`
// (which turns `immediateExecutionContext` back into the core's immediate context). They have no default
// argument on purpose: the core's forms keep the defaults, so `future.onSuccess { }` stays unambiguous. The
// forms that make a future take the caller's `file` and `line` and pass them on, so that the step they
// make is named at the caller's line, in failure traces and the pending-futures report alike.

extension Future {
    /// Registers `callback` to run with the result, on the context function `context`.
    ///
    /// `context` must run every task it is given (see `Futures.ExecutionContext.init(_:)`): a dropped task
    /// also holds back the callbacks registered after it on this future.
    @inlinable
    @discardableResult
    public func onComplete(
        _ context: @escaping ExecutionContext,
        callback: @escaping @Sendable (Result<T, E>) -> Void
    ) -> Self {
        onComplete(Futures.ExecutionContext(context), callback: callback)
    }

    /// Registers `callback` to run with the value on success, on the context function `context`; it never
    /// runs on failure.
    @inlinable
    @discardableResult
    public func onSuccess(
        _ context: @escaping ExecutionContext,
        callback: @escaping @Sendable (T) -> Void
    ) -> Self {
        onSuccess(Futures.ExecutionContext(context), callback: callback)
    }

    /// Registers `callback` to run with the error on failure, on the context function `context`; it never
    /// runs on success.
    @inlinable
    @discardableResult
    public func onFailure(
        _ context: @escaping ExecutionContext,
        callback: @escaping @Sendable (E) -> Void
    ) -> Self {
        onFailure(Futures.ExecutionContext(context), callback: callback)
    }

    /// Runs `callback` on the context function `context` for its side effect, then completes the returned
    /// future with this future's result.
    @inlinable
    public func andThen(
        context: @escaping ExecutionContext,
        callback: @escaping @Sendable (Result<T, E>) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E> {
        andThen(Futures.ExecutionContext(context), callback: callback, file: file, line: line)
    }

    /// Transforms the value with `f`, run on the context function `context`; a failure passes through
    /// and `f` does not run.
    @inlinable
    public func map<U>(
        _ context: @escaping ExecutionContext,
        f: @escaping @Sendable (T) -> U,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, E> {
        map(Futures.ExecutionContext(context), f: f, file: file, line: line)
    }

    /// Continues with the future `f` returns for the value, `f` running on the context function `context`.
    ///
    /// A failure of this future (then `f` does not run) or of `f`'s future fails the returned future.
    @inlinable
    public func flatMap<U>(
        _ context: @escaping ExecutionContext,
        f: @escaping @Sendable (T) -> Future<U, E>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, E> {
        flatMap(Futures.ExecutionContext(context), f: f, file: file, line: line)
    }

    /// Continues with the `Result` that `f`, run on the context function `context`, returns for the value.
    ///
    /// A failure of this future passes through and `f` does not run. Disfavoured, as the core's `flatMap`
    /// with a `Result` is: where a closure that states no type returns `.init(value:)` or
    /// `.init(error:)`, the overload taking a `Future` is chosen.
    @inlinable
    @_disfavoredOverload
    public func flatMap<U>(
        _ context: @escaping ExecutionContext,
        f: @escaping @Sendable (T) -> Result<U, E>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<U, E> {
        flatMap(Futures.ExecutionContext(context), f: f, file: file, line: line)
    }

    /// Transforms the error with `f`, run on the context function `context`; a success passes through
    /// and `f` does not run.
    @inlinable
    public func mapError<E1: Error>(
        _ context: @escaping ExecutionContext,
        f: @escaping @Sendable (E) -> E1,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E1> {
        mapError(Futures.ExecutionContext(context), f: f, file: file, line: line)
    }

    /// Turns a failure into a value with `task`, run on the context function `context`, only if this future
    /// fails; the returned future cannot fail.
    @inlinable
    public func recover(
        context: @escaping ExecutionContext,
        task: @escaping @Sendable (E) -> T,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, Never> {
        recover(Futures.ExecutionContext(context), task: task, file: file, line: line)
    }

    /// Recovers from a failure with the future `task` returns for the error, `task` running on the context
    /// function `context`, only if this future fails.
    @inlinable
    public func recoverWith<E1: Error>(
        context: @escaping ExecutionContext,
        task: @escaping @Sendable (E) -> Future<T, E1>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, E1> {
        recoverWith(Futures.ExecutionContext(context), task: task, file: file, line: line)
    }

    /// Logs the result (see the core's `debug(_:logger:file:line:function:context:fileID:)`), on the context
    /// function `context`; the returned future has this future's result, completed after the message is
    /// logged.
    ///
    /// - Parameters:
    ///   - identifier: Names the future in the message; `nil` names it by `file`, `line` and `function`.
    ///   - logger: Builds and writes the message; `PrintLogger` if omitted.
    ///   - file: The caller's file path, for the message (leave the default).
    ///   - line: The caller's line, for the message and the step (leave the default).
    ///   - function: The caller's function, for the message (leave the default).
    ///   - context: Where the message is logged.
    ///   - fileID: The caller's file, where the step is recorded (leave the default).
    public func debug(
        _ identifier: String? = nil,
        logger: any LoggerType = PrintLogger(),
        file: String = #file,
        line: UInt = #line,
        function: String = #function,
        context: @escaping ExecutionContext,
        fileID: StaticString = #fileID
    ) -> Future<T, E> {
        debug(
            identifier, logger: logger, file: file, line: line, function: function,
            context: Futures.ExecutionContext(context), fileID: fileID)
    }
}

extension Sequence {
    /// The first value, in list order, that passes `p`, run on the context function `context` (see the
    /// core's `find(_:p:file:line:)`): fails with `.noSuchElement` when none matches, with `.external` when a
    /// future fails.
    public func find<T, E>(
        _ context: @escaping ExecutionContext,
        p: @escaping @Sendable (T) -> Bool,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<T, CombinatorError<E>> where Element == Future<T, E> {
        find(Futures.ExecutionContext(context), p: p, file: file, line: line)
    }

    /// The futures `f` makes for the elements, gathered into one future of their values in list order,
    /// completed on the context function `context` (see the core's `traverse(_:f:file:line:)`).
    public func traverse<U, E>(
        _ context: @escaping ExecutionContext,
        f: (Element) -> Future<U, E>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<[U], E> {
        traverse(Futures.ExecutionContext(context), f: f, file: file, line: line)
    }

    /// The values of the futures, folded with `f` from `zero` on the context function `context` (see the
    /// core's `fold(_:zero:file:line:f:)`); the first failure in list order fails the result.
    public func fold<T, E, R>(
        _ context: @escaping ExecutionContext,
        zero: R,
        file: StaticString = #fileID,
        line: UInt = #line,
        f: @escaping @Sendable (R, T) -> R
    ) -> Future<R, E> where Element == Future<T, E> {
        fold(Futures.ExecutionContext(context), zero: zero, file: file, line: line, f: f)
    }
}
