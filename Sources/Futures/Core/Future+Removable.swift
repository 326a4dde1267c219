extension Future {
    /// Registers `body` to run with the result on `context`, like ``whenComplete(_:_:)``, as an entry
    /// that can be taken back with ``removeEntry(_:)`` in O(1) while the future is pending (a cancelled
    /// `CancelToken` registration, an invalidated token's registration, a cancelled subscription).
    ///
    /// - Returns: The entry, or `nil` if the future was already completed: `body` then ran (immediate
    ///   context, through the trampoline) or was handed to `context` before this method returned.
    @usableFromInline
    @discardableResult
    func whenCompleteRemovable(
        _ context: ExecutionContext,
        _ body: @escaping @Sendable (Result<T, E>) -> Void
    ) -> RemovableEntry<T, E>? {
        let entry = RemovableEntry<T, E>(.callback(context, body))
        return addRemovable(entry) ? entry : nil
    }
}
