extension Future: CustomStringConvertible, CustomDebugStringConvertible {
    /// The type and the current result, e.g. `Future<Int, Never>(Optional(Swift.Result<Int, Never>.success(1)))`
    /// or `Future<Int, Never>(nil)` while pending.
    ///
    /// (BrightFutures printed a future as its base class, `Async<Result<Int, Never>>(…)`.)
    public var description: String {
        "Future<\(T.self), \(E.self)>(\(String(describing: result)))"
    }

    /// The same as ``description``.
    public var debugDescription: String {
        description
    }
}
