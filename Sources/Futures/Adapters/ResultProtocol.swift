/// A type that is, or holds, a `Result`; lets the library's generic code constrain a type parameter to
/// "some Result". Application code written for BrightFutures gets the public protocol of that name, with
/// BrightFutures' associated type `Error`, from the `BrightFutures` module.
package protocol ResultProtocol {
    /// The success type. Named `Success`, as `Result`'s own parameter: named `Value`, it would give
    /// `Result` a `package` type alias `Value` that hides the `BrightFutures` module's public one from
    /// application code (`Future<Value.Value, Value.Error>` in an `extension Future`).
    associatedtype Success
    /// The failure type.
    associatedtype Failure: Error

    /// Creates a success with `value`.
    init(value: Success)
    /// Creates a failure with `error`.
    init(error: Failure)

    /// The value as a standard `Result`.
    var result: Result<Success, Failure> { get }
}

extension Result: ResultProtocol {
    /// Creates `.success(value)`.
    ///
    /// Disfavoured so that `Result { try work() }` keeps meaning the standard library's catching
    /// initializer (a closure is also a value).
    @_disfavoredOverload
    public init(value: Success) {
        self = .success(value)
    }

    /// Creates `.failure(error)`.
    public init(error: Failure) {
        self = .failure(error)
    }

    /// The result itself (what a `ResultProtocol` requires; the `BrightFutures` module's protocol of that
    /// name requires it too).
    public var result: Result<Success, Failure> {
        self
    }

    /// The value on success, else `nil`.
    public var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error on failure, else `nil`.
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension Result {
    /// Case analysis: returns `ifSuccess(value)` for a success and `ifFailure(error)` for a failure.
    ///
    /// The closures run synchronously, on the calling thread; only the matching one runs.
    public func analysis<R>(ifSuccess: (Success) throws -> R, ifFailure: (Failure) throws -> R) rethrows -> R {
        switch self {
        case .success(let value): return try ifSuccess(value)
        case .failure(let error): return try ifFailure(error)
        }
    }
}
