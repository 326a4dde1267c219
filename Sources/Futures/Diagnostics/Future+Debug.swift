extension Future {
    /// Logs a line when this future completes, then completes the returned future with the same result.
    ///
    /// The message comes from `logger`'s ``LoggerType/message(for:with:file:line:function:)``:
    /// `Future <identifier> completed`, or without an identifier
    /// `<file name> at line <line>, func: <function> - future completed`. It is logged on `context`
    /// (``defaultContext()`` if omitted) for a success and a failure alike; this is
    /// `andThen(context:callback:)` with a logging callback.
    public func debug(
        _ identifier: String? = nil,
        logger: any LoggerType = PrintLogger(),
        file: String = #file,
        line: UInt = #line,
        function: String = #function,
        context: ExecutionContext = defaultContext()
    ) -> Future<T, E> {
        andThen(context: context) { result in
            logger.log(
                message: logger.message(for: result, with: identifier, file: file, line: line, function: function))
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
