import Dispatch
import Foundation

/// BrightFutures' execution context: a function that runs the task it is given, where it chooses.
///
/// For `import BrightFutures` code this name is the function type, as in BrightFutures, and hides the
/// core's `Futures.ExecutionContext` struct: a parameter `_ context: @escaping ExecutionContext` accepts
/// `immediateExecutionContext`, `DispatchQueue.main.context`, a token's `validContext` or a closure of
/// your own, and passes on to every combinator (each also takes this function form and wraps it with
/// `ExecutionContext.init(_:)`). The function must run each task exactly once; see that
/// initializer for what happens otherwise. Unlike BrightFutures' it is `@Sendable`, as is the task it runs:
/// contexts are handed across threads.
public typealias ExecutionContext = @Sendable (_ task: @escaping @Sendable () -> Void) -> Void

/// Runs each task at once, on the thread that hands it over.
///
/// Handed to a combinator it is the core's immediate context itself (the core recognises this function):
/// callbacks run on the completing (or registering) thread, through the library's trampoline, so chains of
/// any length use bounded stack, and a combinator on a completed future runs at once, with no scheduled
/// entry. A closure of your own that runs its task at once is a custom context instead: it works the same,
/// without those shortcuts.
///
/// A computed global (BrightFutures' is a `let`; code that reads it compiles unchanged): every read is the
/// core's one immediate function itself, read in place with no lazy initialisation to check, so spelling
/// it at every call costs what a context held in a local costs.
@inlinable
public var immediateExecutionContext: ExecutionContext { Futures.ExecutionContext.immediateFunction }

/// Runs a task at once when handed over on the main thread, else asynchronously on the main queue:
/// `Futures.immediateOnMainExecutionContext` as a function.
public let immediateOnMainExecutionContext: ExecutionContext = { task in
    Futures.immediateOnMainExecutionContext.execute(task)
}

/// Runs tasks at once until 20 are nested on the thread, then on a global queue:
/// `Futures.maxStackDepthExecutionContext` as a function.
public let maxStackDepthExecutionContext: ExecutionContext = { task in
    Futures.maxStackDepthExecutionContext.execute(task)
}

/// The context used where none is given: the main queue when called on the main thread, else a global
/// queue (`Futures.defaultContext()`, chosen when this function is called, as a function).
///
/// Disfavoured: where a call accepts both the core's context value and this function
/// (`recover(context: defaultContext())`), the core's is taken, which has the same rule; where only a
/// function fits (a parameter of this module's `ExecutionContext` type), this one is.
@_disfavoredOverload
public func defaultContext() -> ExecutionContext {
    let context = Futures.defaultContext()
    return { task in context.execute(task) }
}

/// BrightFutures' pre-4.0 name of `immediateExecutionContext`.
@available(*, deprecated, renamed: "immediateExecutionContext")
@inlinable
public var ImmediateExecutionContext: ExecutionContext { immediateExecutionContext }

/// BrightFutures' pre-4.0 name of `immediateOnMainExecutionContext`.
@available(*, deprecated, renamed: "immediateOnMainExecutionContext")
public let ImmediateOnMainExecutionContext = immediateOnMainExecutionContext

/// BrightFutures' pre-4.0 name of `maxStackDepthExecutionContext`.
@available(*, deprecated, renamed: "maxStackDepthExecutionContext")
public let MaxStackDepthExecutionContext = maxStackDepthExecutionContext

/// BrightFutures' pre-4.0 name of `defaultContext()`.
@available(*, deprecated, renamed: "defaultContext")
public func DefaultThreadingModel() -> ExecutionContext {
    defaultContext()
}

extension DispatchQueue {
    /// A context that runs each task asynchronously on this queue (`async(execute:)`), as a function:
    /// `DispatchQueue.main.context` runs callbacks on the main thread. It holds the queue strongly.
    public var context: ExecutionContext {
        { [self] task in self.async(execute: task) }
    }
}

extension DispatchSemaphore {
    /// A context that runs each task on the calling thread while holding this semaphore (waits for it,
    /// runs the task, signals it), as the core's `DispatchSemaphore.context` does.
    public var context: ExecutionContext {
        { [self] task in
            self.wait()
            task()
            self.signal()
        }
    }
}

extension OperationQueue {
    /// A context that adds each task to this queue as an operation, as the core's
    /// `OperationQueue.context` does. It holds the queue strongly, so no task is dropped.
    public var context: ExecutionContext {
        { [self] task in self.addOperation(task) }
    }
}

extension InvalidationTokenType {
    /// A context that runs tasks on `defaultContext()` (as chosen now) while the token is valid, as a
    /// function: `validContext(_:)` with that context.
    public var validContext: ExecutionContext {
        validContext(defaultContext())
    }

    /// A context that runs tasks on `parentContext` while the token is valid and skips them once it is
    /// invalid: the core's `InvalidationTokenType.validContext(_:)` as a
    /// function.
    ///
    /// The check happens on `parentContext`, right before the task runs; a skipped callback is skipped
    /// alone (those registered after it still run), and a skipped transform leaves its future pending. A
    /// callback registered through this function form stays with its future until the future completes
    /// (as in BrightFutures); to have `invalidate()` release it at once, pass the core's struct form.
    public func validContext(_ parentContext: @escaping ExecutionContext = defaultContext()) -> ExecutionContext {
        let gated: Futures.ExecutionContext = validContext(Futures.ExecutionContext(parentContext))
        return { task in gated.execute(task) }
    }
}
