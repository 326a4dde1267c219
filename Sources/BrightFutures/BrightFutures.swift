// A BrightFutures framework built by CocoaPods or Carthage re-exported Foundation (and with it Dispatch)
// through its umbrella header, so BrightFutures code often uses `DispatchQueue`, `DispatchTimeInterval` or
// `Thread` with only `import BrightFutures`; this module does the same (Dispatch separately: off Apple
// platforms Foundation does not re-export it).
@_exported import Dispatch
@_exported import Foundation
// BrightFutures' module name over the one core: `import BrightFutures` brings every name of `Futures`
// (the core already spells most of BrightFutures' API), plus BrightFutures' own declarations where the
// core's differ or it has none: the function type `ExecutionContext` and its values, the protocols
// `AsyncType` and `ResultProtocol` with their extensions, and the names below. A module's own declaration
// hides the one of the same name it re-exports, for its clients too. Nothing here adds a mechanism: every
// declaration forwards to the core, or names a core type.
@_exported import Futures

/// BrightFutures' `NoValue`, the value type of a future that can only fail: the core spells it `Never`.
///
/// `Future<NoValue, E>` is `Future<Never, E>`; `promoteValue()` turns it into any `Future<T, E>`.
public typealias NoValue = Never

/// BrightFutures' default logger for `debug(_:logger:)`: prints each line to standard output.
public typealias Logger = PrintLogger

/// The errors BrightFutures' operations produce, wrapping the future's own error type `E`: the core's
/// `CombinatorError`, with BrightFutures' cases.
///
/// `filter` and `find` fail with `.noSuchElement` when nothing matches, and with `.external(error)` when
/// the future they work on failed; `InvalidationToken.future` fails with `.invalidationTokenInvalidated`.
/// Two errors are equal when their cases (and wrapped errors) are, `.illegalState` included.
public typealias BrightFuturesError<E: Error> = CombinatorError<E>

/// The module's names, spelled through the module name as BrightFutures code sometimes does
/// (`BrightFutures.materialize { … }`, `BrightFutures.Future<Int, Never>`).
///
/// A type named like its module takes the place of the module in qualified names, so the module's
/// qualified spellings live here. It is an empty enum: it has no instances and adds no behaviour.
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

    /// The context callbacks run on when none is given: the module's `defaultContext()`.
    public static func defaultContext() -> ExecutionContext {
        moduleDefaultContext()
    }

    /// Runs each task at once, on the thread that hands it over: the module's `immediateExecutionContext`.
    public static var immediateExecutionContext: ExecutionContext { moduleImmediateExecutionContext }

    /// Runs a task at once when handed over on the main thread, else on the main queue: the module's
    /// `immediateOnMainExecutionContext`.
    public static var immediateOnMainExecutionContext: ExecutionContext { moduleImmediateOnMainExecutionContext }

    /// Runs tasks at once until a nesting depth, then on a global queue: the module's
    /// `maxStackDepthExecutionContext`.
    public static var maxStackDepthExecutionContext: ExecutionContext { moduleMaxStackDepthExecutionContext }

    /// `BrightFutures.Future`: `Futures.Future`.
    public typealias Future<T: Sendable, E: Error> = Futures.Future<T, E>
    /// `BrightFutures.Promise`: `Futures.Promise`.
    public typealias Promise<T: Sendable, E: Error> = Futures.Promise<T, E>
    /// `BrightFutures.BrightFuturesError`: the module's `BrightFuturesError`, the core's `CombinatorError`.
    public typealias BrightFuturesError<E: Error> = Futures.CombinatorError<E>
    /// `BrightFutures.ExecutionContext`: the module's function type `ExecutionContext`.
    public typealias ExecutionContext = @Sendable (_ task: @escaping @Sendable () -> Void) -> Void
    /// `BrightFutures.InvalidationToken`: `Futures.InvalidationToken`.
    public typealias InvalidationToken = Futures.InvalidationToken
    /// `BrightFutures.InvalidationTokenType`: `Futures.InvalidationTokenType`.
    public typealias InvalidationTokenType = Futures.InvalidationTokenType
    /// `BrightFutures.ManualInvalidationTokenType`: `Futures.ManualInvalidationTokenType`.
    public typealias ManualInvalidationTokenType = Futures.ManualInvalidationTokenType
    /// `BrightFutures.LoggerType`: `Futures.LoggerType`.
    public typealias LoggerType = Futures.LoggerType
    /// `BrightFutures.Logger`: `Futures.PrintLogger`.
    public typealias Logger = Futures.PrintLogger
    /// `BrightFutures.NoValue`: `Never`.
    public typealias NoValue = Never
}

// The module's own names, for `enum BrightFutures`, inside which the enum's members hide them.
let moduleImmediateExecutionContext = immediateExecutionContext
let moduleImmediateOnMainExecutionContext = immediateOnMainExecutionContext
let moduleMaxStackDepthExecutionContext = maxStackDepthExecutionContext
func moduleDefaultContext() -> ExecutionContext { defaultContext() }
