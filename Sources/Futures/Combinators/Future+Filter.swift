extension Future {
    /// Keeps the value only if it passes `p`.
    ///
    /// The returned future succeeds with this future's value when `p` returns `true`, fails with
    /// ``CombinatorError/noSuchElement`` when it returns `false`, and fails with
    /// ``CombinatorError/external(_:)`` wrapping this future's error when this future fails (then `p`
    /// does not run). `p` runs on the immediate context: on the thread that completes this future, or at
    /// once, before this method returns, when it is already completed. Cancellation requests are
    /// forwarded to this future.
    ///
    /// ```swift
    /// // fails with .noSuchElement
    /// Future<Int, Never>(value: 3).filter { $0 > 5 }
    /// ```
    @inlinable
    public func filter(
        _ p: @escaping @Sendable (T) -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, CombinatorError<E>> {
        @Sendable func check(_ result: Result<T, E>) -> Result<T, CombinatorError<E>> {
            switch result {
            case .success(let value): return p(value) ? .success(value) : .failure(.noSuchElement)
            case .failure(let error): return .failure(.external(error))
            }
        }
        return derive(
            ResultForm<T, E, T, CombinatorError<E>>.self, with: check, .immediate, step: "filter", file: file,
            line: line)
    }
}
