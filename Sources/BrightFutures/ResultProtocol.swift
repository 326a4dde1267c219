/// BrightFutures' protocol of `Result`-like types, with its associated types `Value` and `Error`.
///
/// For `import BrightFutures` code this name hides the core's `Futures.ResultProtocol` (whose second
/// associated type is `Failure`), so generic code written against BrightFutures
/// (`extension AsyncType where Value: ResultProtocol`, `Value.Error`) compiles unchanged. `Result`
/// conforms. The combinators over it need a `Sendable` value, as a future's value is: Swift 6 code adds
/// `Value.Value: Sendable` to such an extension (Swift 5 code need not).
public protocol ResultProtocol {
    /// The success type.
    associatedtype Value
    /// The failure type.
    associatedtype Error: Swift.Error

    /// Creates a success with `value`.
    init(value: Value)
    /// Creates a failure with `error`.
    init(error: Error)

    /// The value as a standard `Result`.
    var result: Result<Value, Error> { get }
}

extension Result: ResultProtocol {}

extension ResultProtocol {
    /// Case analysis: returns `ifSuccess(value)` for a success and `ifFailure(error)` for a failure.
    ///
    /// The closures run synchronously, on the calling thread; only the matching one runs.
    @_disfavoredOverload
    public func analysis<R>(ifSuccess: (Value) throws -> R, ifFailure: (Error) throws -> R) rethrows -> R {
        switch result {
        case .success(let value): return try ifSuccess(value)
        case .failure(let error): return try ifFailure(error)
        }
    }

    /// The future `f` returns for the value, or a future failed with the error (then `f` does not run).
    ///
    /// `f` runs synchronously, on the calling thread.
    @_disfavoredOverload
    public func flatMap<U>(_ f: (Value) -> Future<U, Error>) -> Future<U, Error> where Value: Sendable {
        result.flatMap(f)
    }
}

extension ResultProtocol where Value: ResultProtocol, Error == Value.Error {
    /// The inner result of a result of a result; an outer failure wins. Runs nothing.
    @_disfavoredOverload
    public func flatten() -> Result<Value.Value, Value.Error> {
        result.flatMap { $0.result }
    }
}

extension ResultProtocol
where Value: AsyncType, Value.Value: ResultProtocol, Value.Value.Value: Sendable, Error == Value.Value.Error {
    /// A future with the inner future's result, or failed with this result's error.
    ///
    /// Nothing runs on a context: the returned future completes on the thread that completes the inner one.
    @_disfavoredOverload
    public func flatten() -> Future<Value.Value.Value, Value.Value.Error> {
        switch result {
        case .success(let inner): return inner.coreFuture
        case .failure(let error): return Future(error: error)
        }
    }
}

extension Sequence where Element: ResultProtocol, Element.Value: Sendable {
    /// All the values in order, or the first failure in sequence order. Runs nothing.
    @_disfavoredOverload
    public func sequence() -> Result<[Element.Value], Element.Error> {
        map(\.result).sequence()
    }
}
