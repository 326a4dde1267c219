import Dispatch

/// The core's combinators that `AsyncType`'s `Self`-returning members (`andThen`, `delay`, a sequence's
/// `firstCompleted`) call when the values are core `Future`s, so that the value they return depends on this one through the core
/// (`depend(on:)`): listed under it by the pending-futures report, named at the caller's file and line in a
/// failure trace, asking it as one consumer. The value types are erased, so that generic code over any
/// `AsyncType` can call them; each returns `nil` for a subclass of `Future`, whose `Self` the core's
/// combinators do not make (the caller then builds its value from `onComplete`).
protocol AsyncTypeLinking {
    /// The core's `andThen(context:callback:file:line:)`; `callback` gets the `Result`.
    func linkedAndThen(
        _ context: @escaping ExecutionContext, _ callback: @escaping @Sendable (Any) -> Void, file: StaticString,
        line: UInt
    ) -> Any?

    /// The core's `delay(_:interval:file:line:)`, or `delay(_:file:line:)` when `queue` is `nil`.
    func linkedDelay(_ queue: DispatchQueue?, _ interval: DispatchTimeInterval, file: StaticString, line: UInt) -> Any?

    /// The core's `firstCompleted(file:line:)` of `all`, when every element is a future of exactly this type.
    static func linkedFirstCompleted(_ all: [Any], file: StaticString, line: UInt) -> Any?
}

extension Future: AsyncTypeLinking {
    func linkedAndThen(
        _ context: @escaping ExecutionContext, _ callback: @escaping @Sendable (Any) -> Void, file: StaticString,
        line: UInt
    ) -> Any? {
        guard type(of: self) == Future<T, E>.self else { return nil }
        return andThen(context: context, callback: { callback($0) }, file: file, line: line)
    }

    func linkedDelay(_ queue: DispatchQueue?, _ interval: DispatchTimeInterval, file: StaticString, line: UInt) -> Any?
    {
        guard type(of: self) == Future<T, E>.self else { return nil }
        guard let queue else { return delay(interval, file: file, line: line) }
        return delay(queue, interval: interval, file: file, line: line)
    }

    static func linkedFirstCompleted(_ all: [Any], file: StaticString, line: UInt) -> Any? {
        let futures = all.compactMap { $0 as? Future<T, E> }
        guard futures.count == all.count, futures.allSatisfy({ type(of: $0) == Future<T, E>.self }) else {
            return nil
        }
        return futures.firstCompleted(file: file, line: line)
    }
}
