import Dispatch

// BrightFutures' sequence operations over any `AsyncType`, each forwarding to the core's operation on the
// elements' core futures. On a sequence of `Future`s the core's own methods are chosen (these are
// disfavoured overloads).

extension Sequence {
    /// The core's `traverse(_:f:)`: `f` runs at once for every element, on the calling thread; the values
    /// in order once all succeed, delivered on `context`; the first failure otherwise.
    @_disfavoredOverload
    public func traverse<U, E, A: AsyncType>(
        _ context: @escaping ExecutionContext = DispatchQueue.global().context,
        f: (Element) -> A,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<[U], E> where A.Value: ResultProtocol, U: Sendable, A.Value.Value == U, A.Value.Error == E {
        map { f($0).coreFuture }.traverse(context, f: { $0 }, file: file, line: line)
    }
}

extension Sequence where Element: AsyncType {
    /// The first of the values to arrive, as the elements' type (the core's `firstCompleted(file:line:)`,
    /// which never cancels the others, and which names this step at the caller's `file` and `line` when the
    /// elements are core `Future`s). Nothing runs on a context.
    @_disfavoredOverload
    public func firstCompleted(file: StaticString = #fileID, line: UInt = #line) -> Element {
        let all = Array(self)
        if let linking = all.first as? any AsyncTypeLinking,
            let first = type(of: linking).linkedFirstCompleted(expecting: Element.self, all, file: file, line: line)
                as? Element
        {
            return first
        }
        let first = all.map(\.asyncFuture).firstCompleted()
        return Element { complete in first.onSuccess(Futures.immediateExecutionContext, callback: complete) }
    }
}

extension Sequence where Element: AsyncType, Element.Value: ResultProtocol, Element.Value.Value: Sendable {
    /// The core futures of the elements.
    var coreFutures: [Future<Element.Value.Value, Element.Value.Error>] {
        map(\.coreFuture)
    }

    /// The core's `fold(_:f:)`: `f` runs on a global queue.
    @_disfavoredOverload
    public func fold<R>(
        _ zero: R,
        file: StaticString = #fileID,
        line: UInt = #line,
        f: @escaping @Sendable (R, Element.Value.Value) -> R
    ) -> Future<R, Element.Value.Error> {
        coreFutures.fold(zero, file: file, line: line, f: f)
    }

    /// The core's `fold(_:zero:f:)`: `f` runs on `context`, once per element in order; the first failure
    /// in sequence order fails the result.
    @_disfavoredOverload
    public func fold<R>(
        _ context: @escaping ExecutionContext,
        zero: R,
        file: StaticString = #fileID,
        line: UInt = #line,
        f: @escaping @Sendable (R, Element.Value.Value) -> R
    ) -> Future<R, Element.Value.Error> {
        coreFutures.fold(context, zero: zero, file: file, line: line, f: f)
    }

    /// The core's `sequence()`: the values in order once all succeed, else the first failure. Nothing runs
    /// on a context.
    @_disfavoredOverload
    public func sequence(
        file: StaticString = #fileID, line: UInt = #line
    ) -> Future<[Element.Value.Value], Element.Value.Error> {
        coreFutures.sequence(file: file, line: line)
    }

    /// The core's `find(_:)`: `p` runs on a global queue.
    @_disfavoredOverload
    public func find(
        _ p: @escaping @Sendable (Element.Value.Value) -> Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<Element.Value.Value, BrightFuturesError<Element.Value.Error>> {
        coreFutures.find(p, file: file, line: line)
    }

    /// The core's `find(_:p:)`: `p` runs on `context` once all succeed; fails with
    /// `BrightFuturesError/noSuchElement` when no value passes, or with the first failure as `external`.
    @_disfavoredOverload
    public func find(
        _ context: @escaping ExecutionContext,
        p: @escaping @Sendable (Element.Value.Value) -> Bool,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Element.Value.Value, BrightFuturesError<Element.Value.Error>> {
        coreFutures.find(context, p: p, file: file, line: line)
    }
}
