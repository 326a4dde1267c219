import Dispatch

/// The core's combinators that `AsyncType`'s members `andThen`, `delay`, `flatten` and a sequence's
/// `firstCompleted` call when the values are core `Future`s, so that the value they return depends on its
/// input through the core (`depend(on:)`): listed under it by the pending-futures report, named at the
/// caller's file and line in a failure trace, asking it as one consumer.
///
/// The value types are erased, so that generic code over any `AsyncType` can call them. The `Self`-returning
/// ones take the static type the caller returns (`expecting`) and return `nil` unless it is `Future<T, E>`
/// itself: a subclass's `Self` is not what the core's combinators make, and the caller then builds its value
/// from `onComplete` instead.
protocol AsyncTypeLinking {
    /// The core's `andThen(context:callback:file:line:)`; `callback` gets the `Result`.
    func linkedAndThen(
        expecting: Any.Type, _ context: @escaping ExecutionContext, _ callback: @escaping @Sendable (Any) -> Void,
        file: StaticString, line: UInt
    ) -> Any?

    /// The core's `delay(_:interval:file:line:)`, or `delay(_:file:line:)` when `queue` is `nil`.
    func linkedDelay(
        expecting: Any.Type, _ queue: DispatchQueue?, _ interval: DispatchTimeInterval, file: StaticString,
        line: UInt
    ) -> Any?

    /// The core's `firstCompleted(file:line:)` of `all`, when every element is a future of this type.
    static func linkedFirstCompleted(expecting: Any.Type, _ all: [Any], file: StaticString, line: UInt) -> Any?

    /// The core's `flatten(file:line:)` of `outer`, when it is a `Future` of futures of this type with the
    /// same error type.
    static func linkedFlatten(_ outer: Any, file: StaticString, line: UInt) -> Any?
}

extension Future: AsyncTypeLinking {
    func linkedAndThen(
        expecting: Any.Type, _ context: @escaping ExecutionContext, _ callback: @escaping @Sendable (Any) -> Void,
        file: StaticString, line: UInt
    ) -> Any? {
        guard expecting == Future<T, E>.self else { return nil }
        return andThen(context: context, callback: { callback($0) }, file: file, line: line)
    }

    func linkedDelay(
        expecting: Any.Type, _ queue: DispatchQueue?, _ interval: DispatchTimeInterval, file: StaticString,
        line: UInt
    ) -> Any? {
        guard expecting == Future<T, E>.self else { return nil }
        guard let queue else { return delay(interval, file: file, line: line) }
        return delay(queue, interval: interval, file: file, line: line)
    }

    static func linkedFirstCompleted(expecting: Any.Type, _ all: [Any], file: StaticString, line: UInt) -> Any? {
        let futures = all.compactMap { $0 as? Future<T, E> }
        guard expecting == Future<T, E>.self, futures.count == all.count else { return nil }
        return futures.firstCompleted(file: file, line: line)
    }

    static func linkedFlatten(_ outer: Any, file: StaticString, line: UInt) -> Any? {
        guard let outer = outer as? Future<Future<T, E>, E> else { return nil }
        return outer.flatten(file: file, line: line)
    }
}
