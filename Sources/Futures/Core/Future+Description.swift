extension Future: CustomStringConvertible, CustomDebugStringConvertible {
    /// The same as ``description``.
    public var debugDescription: String {
        description
    }
}
