import Futures

/// The result of a computation: a value or an error (SimpleFutures' `Try`).
///
/// Futures complete with a `Try`, and `onComplete` passes one. Convert with `init(_:)`
/// and `result`.
public enum Try<T> {
    /// A value.
    case success(T)
    /// An error.
    case failure(any Error)

    /// Creates a successful `Try`.
    @inlinable
    public init(_ value: T) { self = .success(value) }

    /// Creates a failed `Try`.
    @inlinable
    public init(_ error: any Error) { self = .failure(error) }

    /// Runs `task` at once and holds its value, or the error it throws.
    @inlinable
    public init(_ task: () throws -> T) {
        do { self = .success(try task()) } catch { self = .failure(error) }
    }

    /// Creates a `Try` from a standard `Result`.
    @inlinable
    public init(_ result: Result<T, any Error>) {
        switch result {
        case .success(let value): self = .success(value)
        case .failure(let error): self = .failure(error)
        }
    }

    /// The same outcome as a standard `Result`.
    @inlinable
    public var result: Result<T, any Error> {
        switch self {
        case .success(let value): return .success(value)
        case .failure(let error): return .failure(error)
        }
    }

    /// The value, or `nil` on failure.
    @inlinable
    public var value: T? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, or `nil` on success.
    @inlinable
    public var error: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// Whether this holds a value.
    @inlinable
    public func isSuccess() -> Bool {
        if case .success = self { return true }
        return false
    }

    /// Whether this holds an error.
    @inlinable
    public func isFailure() -> Bool { !isSuccess() }

    /// Transforms the value; what `mapping` throws becomes the failure. A failure passes through.
    @inlinable
    public func map<M>(_ mapping: (T) throws -> M) -> Try<M> {
        switch self {
        case .success(let value): return Try<M> { try mapping(value) }
        case .failure(let error): return .failure(error)
        }
    }

    /// Continues with the `Try` `mapping` returns for the value; what it throws becomes the failure.
    @inlinable
    public func flatMap<M>(_ mapping: (T) throws -> Try<M>) -> Try<M> {
        switch self {
        case .success(let value):
            do { return try mapping(value) } catch { return .failure(error) }
        case .failure(let error): return .failure(error)
        }
    }

    /// Transforms the error; a value passes through.
    @inlinable
    public func mapError(_ mapping: (any Error) -> any Error) -> Try<T> {
        switch self {
        case .success: return self
        case .failure(let error): return .failure(mapping(error))
        }
    }

    /// Replaces a failure with the value `recovery` returns (or the error it throws).
    @inlinable
    public func recover(_ recovery: (any Error) throws -> T) -> Try<T> {
        switch self {
        case .success: return self
        case .failure(let error): return Try { try recovery(error) }
        }
    }

    /// Replaces a failure with the `Try` `recovery` returns (or the error it throws).
    @inlinable
    public func recoverWith(_ recovery: (any Error) throws -> Try<T>) -> Try<T> {
        switch self {
        case .success: return self
        case .failure(let error):
            do { return try recovery(error) } catch { return .failure(error) }
        }
    }

    /// Keeps the value if `predicate` accepts it; else fails with `FuturesError.noSuchElement` (or
    /// the error `predicate` throws).
    @inlinable
    public func filter(_ predicate: (T) throws -> Bool) -> Try<T> {
        switch self {
        case .success(let value):
            do { return try predicate(value) ? self : .failure(FuturesError.noSuchElement) } catch {
                return .failure(error)
            }
        case .failure: return self
        }
    }

    /// Runs `apply` with the value; an error it throws is ignored. Does nothing on failure.
    @inlinable
    public func forEach(_ apply: (T) throws -> Void) {
        if case .success(let value) = self { try? apply(value) }
    }

    /// This `Try` if it holds a value, else `failed`.
    @inlinable
    public func orElse(_ failed: Try<T>) -> Try<T> {
        if case .success = self { return self }
        return failed
    }

    /// The value as an optional (`nil` on failure).
    @inlinable
    public func toOptional() -> T? { value }

    /// The value, or `failed` on failure.
    @inlinable
    public func getOrElse(_ failed: T) -> T {
        if case .success(let value) = self { return value }
        return failed
    }
}

extension Try: Sendable where T: Sendable {}

/// The value of `left`, or `right` if it failed.
@inlinable
public func ?? <T>(left: Try<T>, right: T) -> T {
    left.getOrElse(right)
}

extension Sequence {
    /// All values of these `Try`s in order, or the first failure.
    @inlinable
    public func sequence<T>() -> Try<[T]> where Element == Try<T> {
        var values: [T] = []
        values.reserveCapacity(underestimatedCount)
        for element in self {
            switch element {
            case .success(let value): values.append(value)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(values)
    }
}

extension Optional {
    /// The wrapped value if `predicate` accepts it, else `nil` (SimpleFutures' `Optional.filter`).
    @inlinable
    public func filter(_ predicate: (Wrapped) throws -> Bool) rethrows -> Wrapped? {
        guard let value = self else { return nil }
        return try predicate(value) ? value : nil
    }

    /// Runs `apply` with the wrapped value, if there is one (SimpleFutures' `Optional.forEach`).
    @inlinable
    public func forEach(_ apply: (Wrapped) throws -> Void) rethrows {
        if let value = self { try apply(value) }
    }
}
