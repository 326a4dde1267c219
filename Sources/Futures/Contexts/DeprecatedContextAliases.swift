/// BrightFutures' pre-4.0 name of ``immediateExecutionContext``.
@available(*, deprecated, renamed: "immediateExecutionContext")
public let ImmediateExecutionContext = immediateExecutionContext

/// BrightFutures' pre-4.0 name of ``immediateOnMainExecutionContext``.
@available(*, deprecated, renamed: "immediateOnMainExecutionContext")
public let ImmediateOnMainExecutionContext = immediateOnMainExecutionContext

/// BrightFutures' pre-4.0 name of ``maxStackDepthExecutionContext``.
@available(*, deprecated, renamed: "maxStackDepthExecutionContext")
public let MaxStackDepthExecutionContext = maxStackDepthExecutionContext

/// BrightFutures' threading model, called as `DefaultThreadingModel()`: returns ``defaultContext()``.
///
/// In BrightFutures this was an assignable global `var`; a stored global `var` is not allowed in Swift 6,
/// so replace the default with ``DefaultExecutionContext/setProcessDefault(_:)`` (the whole process) or
/// ``DefaultExecutionContext/withDefault(_:operation:)-(_,()->R)`` (one task tree) instead.
@available(*, deprecated, renamed: "defaultContext")
public func DefaultThreadingModel() -> ExecutionContext {
    defaultContext()
}
