import Dispatch

/// The core's combinators that `AsyncType`'s members `andThen`, `delay`, `init(other:)` and a sequence's
/// `firstCompleted` call when the values are core `Future`s, so that the value they return depends on its
/// input through the core (`depend(on:)`): listed under it by the pending-futures report, named at the
/// caller's file and line in a failure trace, asking it as one consumer.
///
/// The value types are erased, so that generic code over any `AsyncType` can call them. The `Self`-returning
/// ones take the static type the caller returns (`expecting`): for `Future<T, E>` itself they return the
/// core combinator's future; for a subclass of it (a face's own cell class, such as BoltsSwift's `Task`),
/// whose `Self` the core's combinators do not make, a new value of the subclass that takes the core
/// combinator's result as one consumer of it (`completeWith`), so that it stays linked to its input through
/// that future; for any other type `nil`, before anything runs, and the caller builds its value from
/// `onComplete` instead.
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

    /// The core's `Future(other:file:line:)` of this future: a value that follows it as one consumer.
    func linkedFollower(expecting: Any.Type, file: StaticString, line: UInt) -> Any?

    /// The core's `firstCompleted(file:line:)` of `all`, when every element is a future of this type.
    static func linkedFirstCompleted(expecting: Any.Type, _ all: [Any], file: StaticString, line: UInt) -> Any?
}

extension Future: AsyncTypeLinking {
    /// The future `make` makes (a core combinator's, from this type's futures) as a value of `expecting`, as
    /// ``AsyncTypeLinking`` says: itself, or a value of the subclass `expecting` that follows it; `nil`, and
    /// `make` is not called, when `expecting` is not this class or a subclass of it.
    static func linked(_ expecting: Any.Type, _ make: () -> Future<T, E>) -> Any? {
        if expecting == Future<T, E>.self { return make() }
        guard let subclass = expecting as? Future<T, E>.Type else { return nil }
        // `Self { _ in }`, as generic code over `AsyncType` makes a pending value of the subclass.
        let value = subclass.init(resolver: { _ in })
        value.completeWith(make())
        return value
    }

    func linkedAndThen(
        expecting: Any.Type, _ context: @escaping ExecutionContext, _ callback: @escaping @Sendable (Any) -> Void,
        file: StaticString, line: UInt
    ) -> Any? {
        Self.linked(expecting) { andThen(context: context, callback: { callback($0) }, file: file, line: line) }
    }

    func linkedFollower(expecting: Any.Type, file: StaticString, line: UInt) -> Any? {
        Self.linked(expecting) { Future(other: self, file: file, line: line) }
    }

    func linkedDelay(
        expecting: Any.Type, _ queue: DispatchQueue?, _ interval: DispatchTimeInterval, file: StaticString,
        line: UInt
    ) -> Any? {
        Self.linked(expecting) {
            guard let queue else { return delay(interval, file: file, line: line) }
            return delay(queue, interval: interval, file: file, line: line)
        }
    }

    static func linkedFirstCompleted(expecting: Any.Type, _ all: [Any], file: StaticString, line: UInt) -> Any? {
        let futures = all.compactMap { $0 as? Future<T, E> }
        guard futures.count == all.count else { return nil }
        return linked(expecting) { futures.firstCompleted(file: file, line: line) }
    }
}

/// A core future, or a value of a subclass of one (a face's own cell class, such as BoltsSwift's `Task`), as
/// the core future it is: what lets ``FlattenLinking`` name the type of a future's values.
protocol CoreFutureValue {
    /// The type of the value the future succeeds with.
    associatedtype CoreValue: Sendable
    /// The type of the error the future fails with.
    associatedtype CoreFailure: Error

    /// This value as the core future it is (the same object).
    var coreCell: Future<CoreValue, CoreFailure> { get }
}

extension Future: CoreFutureValue {
    var coreCell: Future<T, E> { self }
}

/// A future whose values are core futures (or values of a subclass of one) with its error type: the
/// `flatten` that `AsyncType`'s generic `flatten` calls when the values it flattens are such futures, so that
/// the result depends on its input through the core (`derive`).
protocol FlattenLinking {
    /// The flattened future, named `flatten` at the caller's `file` and `line`.
    func linkedFlatten(file: StaticString, line: UInt) -> Any
}

extension Future: FlattenLinking where T: CoreFutureValue, T.CoreFailure == E {
    /// The steps of the core's `flatten(file:line:)` (which takes only values of `Future<U, E>` itself), over
    /// each value as the core future it is, so that values of a subclass of `Future` flatten the same way.
    func linkedFlatten(file: StaticString, line: UInt) -> Any {
        let flattened: Future<T.CoreValue, E> = derive(
            FlatMapForm<T, E, T.CoreValue>.self, with: { $0.coreCell }, Futures.immediateExecutionContext,
            step: "flatten", file: file, line: line)
        return flattened
    }
}
