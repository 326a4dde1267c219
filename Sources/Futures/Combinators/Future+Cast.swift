extension Future {
    /// A future with this future's result, its value replaced by `()`: for when only completion matters.
    ///
    /// No closure of yours runs; a failure passes through unchanged. Completed at once when this future
    /// is. Cancellation requests on the returned future are forwarded to this one.
    @inlinable
    public func asVoid(file: StaticString = #fileID, line: UInt = #line) -> Future<Void, E> {
        derive(MapForm<T, E, Void>.self, with: { _ in () }, .immediate, step: "asVoid", file: file, line: line)
    }

    /// A future with this future's result cast to other types with `as!`.
    ///
    /// The cast happens on the thread that completes this future (at once when it is completed). A value
    /// or error that does not have the requested type **traps**, as `as!` does: use it only where the
    /// type is known, e.g. to undo a type erasure. Cancellation requests are forwarded to this future.
    @inlinable
    public func forceType<U, E1: Error>(file: StaticString = #fileID, line: UInt = #line) -> Future<U, E1> {
        @Sendable func cast(_ result: Result<T, E>) -> Result<U, E1> {
            switch result {
            case .success(let value): return .success(value as! U)
            case .failure(let error): return .failure(error as! E1)
            }
        }
        return derive(ResultForm<T, E, U, E1>.self, with: cast, .immediate, step: "forceType", file: file, line: line)
    }
}
