extension Future {
    /// Unwraps a future of a future: the returned future completes with the inner future's result.
    ///
    /// It fails with the outer future's error if the outer future fails, else with the inner one's. No
    /// closure of yours runs. Cancellation requests on the returned future are forwarded to the outer
    /// future while it is pending, then to the inner one (never the pending inner future itself is returned).
    @inlinable
    public func flatten<U>(file: StaticString = #fileID, line: UInt = #line) -> Future<U, E> where T == Future<U, E> {
        derive(FlatMapForm<T, E, U>.self, with: { $0 }, .immediate, step: "flatten", file: file, line: line)
    }
}
