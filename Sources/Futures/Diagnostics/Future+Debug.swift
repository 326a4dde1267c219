extension Future {
    /// Logs a line when this future completes, then completes the returned future with the same result.
    ///
    /// The message comes from `logger`'s ``LoggerType/message(for:with:file:line:function:)``:
    /// `Future <identifier> completed`, or without an identifier
    /// `<file name> at line <line>, func: <function> - future completed`. It is logged on `context`
    /// (``defaultContext()`` if omitted) for a success and a failure alike; this is
    /// `andThen(context:callback:)` with a logging callback.
    ///
    /// When this future fails and has a ``FailureTrace`` (failure tracing was on when it was created, see
    /// ``FuturesDiagnostics/failureTracing``), a second line follows the message: `failure trace: ` and
    /// the trace, from the producer to this future.
    ///
    /// The returned future is a step named `debug` at the caller's `fileID` and `line` in failure traces
    /// and the pending-futures report, and one consumer of this future: a cancellation request on it is
    /// passed on as that consumer's ask.
    ///
    /// - Parameters:
    ///   - identifier: Names the future in the message; `nil` names it by `file`, `line` and `function`.
    ///   - logger: Builds and writes the message; ``PrintLogger`` if omitted.
    ///   - file: The caller's file path, for the message (leave the default).
    ///   - line: The caller's line, for the message and the step (leave the default).
    ///   - function: The caller's function, for the message (leave the default).
    ///   - context: Where the message is logged; ``defaultContext()`` if omitted.
    ///   - fileID: The caller's file, where the step is recorded (leave the default).
    /// - Returns: A future with this future's result, completed after the message is logged.
    public func debug(
        _ identifier: String? = nil,
        logger: any LoggerType = PrintLogger(),
        file: String = #file,
        line: UInt = #line,
        function: String = #function,
        context: ExecutionContext = defaultContext(),
        fileID: StaticString = #fileID
    ) -> Future<T, E> {
        let traced = FailureTracing.isLive ? FailureTracing.node(of: self) : nil
        return derive(context, step: "debug", file: fileID, line: line) { result, future in
            var message = logger.message(for: result, with: identifier, file: file, line: line, function: function)
            if let traced, case .failure = result { message += "\nfailure trace: \(traced.trace())" }
            logger.log(message: message)
            future.complete(result)
        }
    }
}
