/// Where `Future/debug(_:logger:file:line:function:context:fileID:)` sends its messages.
///
/// Implement ``log(message:)``; override ``message(for:with:file:line:function:)`` to change the text.
public protocol LoggerType: Sendable {
    /// Writes `message` somewhere.
    func log(message: String)

    /// The message for a future that completed with `value` (its `Result`).
    ///
    /// The default reads `Future <identifier> completed`, or, without an identifier,
    /// `<last path component of file> at line <line>, func: <function> - future completed`.
    func message<Value>(for value: Value, with identifier: String?, file: String, line: UInt, function: String)
        -> String
}

extension LoggerType {
    /// `Future <identifier> completed`, or `<file name> at line <line>, func: <function> - future completed`.
    public func message<Value>(for value: Value, with identifier: String?, file: String, line: UInt, function: String)
        -> String
    {
        let subject: String
        if let identifier {
            subject = "Future \(identifier)"
        } else {
            let fileName = file.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? file
            subject = "\(fileName) at line \(line), func: \(function) - future"
        }
        return "\(subject) completed"
    }
}

/// The default ``LoggerType``: prints each message to standard output.
///
/// BrightFutures called it `Logger`; that name would clash with `os.Logger` on Apple platforms.
public struct PrintLogger: LoggerType {
    /// Creates the logger.
    public init() {}

    /// Prints `message` with `print`.
    public func log(message: String) {
        print(message)
    }
}
