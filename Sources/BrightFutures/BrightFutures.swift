// BrightFutures' module name over the one core: `import BrightFutures` brings every name of `Futures`
// (the core already spells BrightFutures' API), plus the few names BrightFutures had that the core
// spells differently. Nothing here adds a mechanism: every declaration forwards to the core.
@_exported import Futures

/// BrightFutures' `NoValue`, the value type of a future that can only fail: the core spells it `Never`.
///
/// `Future<NoValue, E>` is `Future<Never, E>`; `promoteValue()` turns it into any `Future<T, E>`.
public typealias NoValue = Never

/// BrightFutures' default logger for `debug(_:logger:)`: prints each line to standard output.
public typealias Logger = PrintLogger

/// The module's names, spelled through the module name as BrightFutures code sometimes does
/// (`BrightFutures.materialize { … }`, `BrightFutures.Future<Int, Never>`).
///
/// A type named like its module takes the place of the module in qualified names, so the module's
/// qualified spellings live here. (Code that imports only `Futures` reaches a deprecated enum of the
/// same name instead; this one, in the `BrightFutures` module, hides it and is not deprecated.) It is an
/// empty enum: it has no instances and adds no behaviour.
public enum BrightFutures {
    /// `BrightFutures.materialize` for a `(value?, error?)` completion handler: the same as the
    /// module's `materialize`.
    ///
    /// `scope` runs at once, on the calling thread; the handler it receives may be called from any
    /// thread: a value succeeds the future, else an error fails it (both `nil` is ignored).
    public static func materialize<T, E>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ scope: (_ completion: @escaping @Sendable (T?, E?) -> Void) -> Void
    ) -> Future<T, E> {
        Futures.materialize(file: file, line: line, scope)
    }

    /// `BrightFutures.materialize` for a completion handler that only delivers a value.
    ///
    /// `scope` runs at once, on the calling thread; the handler may be called from any thread, once.
    public static func materialize<T>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ scope: (_ completion: @escaping @Sendable (T) -> Void) -> Void
    ) -> Future<T, Never> {
        Futures.materialize(file: file, line: line, scope)
    }

    /// `BrightFutures.materialize` for a completion handler that only reports an error (`nil`: success).
    ///
    /// `scope` runs at once, on the calling thread; the handler may be called from any thread, once.
    public static func materialize<E>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ scope: (_ completion: @escaping @Sendable (E?) -> Void) -> Void
    ) -> Future<Void, E> {
        Futures.materialize(file: file, line: line, scope)
    }

    /// The context callbacks run on when none is given (BrightFutures' `defaultContext()`).
    public static func defaultContext() -> ExecutionContext {
        Futures.defaultContext()
    }

    /// Runs each task at once, on the thread that hands it over.
    public static var immediateExecutionContext: ExecutionContext { Futures.immediateExecutionContext }

    /// Runs a task at once when handed over on the main thread, else on the main queue.
    public static var immediateOnMainExecutionContext: ExecutionContext {
        Futures.immediateOnMainExecutionContext
    }

    /// Runs tasks at once until a nesting depth, then on a global queue.
    public static var maxStackDepthExecutionContext: ExecutionContext { Futures.maxStackDepthExecutionContext }

    /// `BrightFutures.Future`: `Futures.Future`.
    public typealias Future<T: Sendable, E: Error> = Futures.Future<T, E>
    /// `BrightFutures.Promise`: `Futures.Promise`.
    public typealias Promise<T: Sendable, E: Error> = Futures.Promise<T, E>
    /// `BrightFutures.Async`: `Futures.Async`.
    public typealias Async<Value: Sendable> = Futures.Async<Value>
    /// `BrightFutures.BrightFuturesError`: `Futures.BrightFuturesError`.
    public typealias BrightFuturesError<E: Error> = Futures.BrightFuturesError<E>
    /// `BrightFutures.ExecutionContext`: `Futures.ExecutionContext`.
    public typealias ExecutionContext = Futures.ExecutionContext
    /// `BrightFutures.InvalidationToken`: `Futures.InvalidationToken`.
    public typealias InvalidationToken = Futures.InvalidationToken
    /// `BrightFutures.InvalidationTokenType`: `Futures.InvalidationTokenType`.
    public typealias InvalidationTokenType = Futures.InvalidationTokenType
    /// `BrightFutures.ManualInvalidationTokenType`: `Futures.ManualInvalidationTokenType`.
    public typealias ManualInvalidationTokenType = Futures.ManualInvalidationTokenType
    /// `BrightFutures.ResultProtocol`: `Futures.ResultProtocol`.
    public typealias ResultProtocol = Futures.ResultProtocol
    /// `BrightFutures.LoggerType`: `Futures.LoggerType`.
    public typealias LoggerType = Futures.LoggerType
    /// `BrightFutures.Logger`: `Futures.PrintLogger`.
    public typealias Logger = Futures.PrintLogger
    /// `BrightFutures.NoValue`: `Never`.
    public typealias NoValue = Never
}
