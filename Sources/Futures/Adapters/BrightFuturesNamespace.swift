/// The old module name, kept so code that spells names through it (`BrightFutures.materialize { … }`)
/// still compiles after `import Futures`. Use the unqualified names instead.
///
/// It is an empty enum: it adds no instances and no other names to `Futures` users.
@available(*, deprecated, message: "BrightFutures is now the module Futures; drop the `BrightFutures.` prefix")
public enum BrightFutures {
    /// The old spelling of the `(value?, error?)` form of `materialize`.
    public static func materialize<T, E>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ scope: (_ completion: @escaping @Sendable (T?, E?) -> Void) -> Void
    ) -> Future<T, E> {
        Futures.materialize(file: file, line: line, scope)
    }

    /// The old spelling of the `(value)` form of `materialize`.
    public static func materialize<T>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ scope: (_ completion: @escaping @Sendable (T) -> Void) -> Void
    ) -> Future<T, Never> {
        Futures.materialize(file: file, line: line, scope)
    }

    /// The old spelling of the `(error?)` form of `materialize`.
    public static func materialize<E>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ scope: (_ completion: @escaping @Sendable (E?) -> Void) -> Void
    ) -> Future<Void, E> {
        Futures.materialize(file: file, line: line, scope)
    }

    /// The old spelling of ``Futures/Future``.
    public typealias Future<T: Sendable, E: Error> = Futures.Future<T, E>
    /// The old spelling of ``Futures/Promise``.
    public typealias Promise<T: Sendable, E: Error> = Futures.Promise<T, E>
    /// The old spelling of ``Futures/BrightFuturesError``.
    public typealias BrightFuturesError<E: Error> = Futures.BrightFuturesError<E>
    /// The old spelling of ``Futures/InvalidationToken``.
    public typealias InvalidationToken = Futures.InvalidationToken
    /// The old spelling of ``Futures/ExecutionContext``.
    public typealias ExecutionContext = Futures.ExecutionContext
}
