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
    public func debug(
        _ identifier: String? = nil,
        logger: any LoggerType = PrintLogger(),
        file: String = #file,
        line: UInt = #line,
        function: String = #function,
        context: ExecutionContext = defaultContext()
    ) -> Future<T, E> {
        let traced = FailureTracing.isLive ? FailureTracing.node(of: self) : nil
        return andThen(context: context) { result in
            var message = logger.message(for: result, with: identifier, file: file, line: line, function: function)
            if let traced, case .failure = result { message += "\nfailure trace: \(traced.trace())" }
            logger.log(message: message)
        }
    }

    /// `debug(_:logger:file:line:function:context:)` on the context function `context`.
    public func debug(
        _ identifier: String? = nil,
        logger: any LoggerType = PrintLogger(),
        file: String = #file,
        line: UInt = #line,
        function: String = #function,
        context: @escaping ExecutionContextFunction
    ) -> Future<T, E> {
        debug(
            identifier, logger: logger, file: file, line: line, function: function, context: ExecutionContext(context))
    }
}
