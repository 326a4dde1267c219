extension Future {
    /// A future of one property of the value: `userFuture.name` is a `Future<String, E>`.
    ///
    /// Key-path member lookup; equivalent to `map { $0[keyPath: keyPath] }` on the immediate context:
    /// the property is read on the thread that completes this future (at once when it is completed).
    /// A failure passes through unchanged; cancellation requests are forwarded to this future. Members of `Future` itself (`value`, `result`, `map`, …)
    /// take precedence over the value's properties of the same name.
    public subscript<U>(dynamicMember keyPath: KeyPath<T, U> & Sendable) -> Future<U, E> {
        map(immediateExecutionContext) { $0[keyPath: keyPath] }
    }
}
