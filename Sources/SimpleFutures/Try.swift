import Futures

/// The result of a computation, a value or an error: SimpleFutures' `Try`, spelled as the standard
/// `Result` with an untyped error.
///
/// Futures complete with a `Try`, and `onComplete` passes one; `.success(value)` and `.failure(error)`
/// match as in SimpleFutures. Being `Result`, a `Try` passes between this module and the core with no
/// conversion. `value` and `error` come with the core (`import Futures` declares them on `Result`);
/// `map`, `flatMap` and `mapError` are the standard ones (their closures do not throw).
public typealias Try<T> = Result<T, any Error>

extension Result where Failure == any Error {
    /// Creates a successful `Try`.
    @inlinable
    public init(_ value: Success) { self = .success(value) }

    /// Creates a failed `Try`.
    @inlinable
    @_disfavoredOverload
    public init(_ error: any Error) { self = .failure(error) }

    /// Runs `task` at once and holds its value, or the error it throws.
    @inlinable
    public init(_ task: () throws -> Success) {
        do { self = .success(try task()) } catch { self = .failure(error) }
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

    /// Replaces a failure with the value `recovery` returns (or the error it throws).
    @inlinable
    public func recover(_ recovery: (any Error) throws -> Success) -> Try<Success> {
        switch self {
        case .success: return self
        case .failure(let error): return Try { try recovery(error) }
        }
    }

    /// Replaces a failure with the `Try` `recovery` returns (or the error it throws).
    @inlinable
    public func recoverWith(_ recovery: (any Error) throws -> Try<Success>) -> Try<Success> {
        switch self {
        case .success: return self
        case .failure(let error):
            do { return try recovery(error) } catch { return .failure(error) }
        }
    }

    /// Keeps the value if `predicate` accepts it; else fails with `FuturesError.noSuchElement` (or the
    /// error `predicate` throws).
    @inlinable
    public func filter(_ predicate: (Success) throws -> Bool) -> Try<Success> {
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
    public func forEach(_ apply: (Success) throws -> Void) {
        if case .success(let value) = self { try? apply(value) }
    }

    /// This `Try` if it holds a value, else `failed`.
    @inlinable
    public func orElse(_ failed: Try<Success>) -> Try<Success> {
        if case .success = self { return self }
        return failed
    }

    /// The value as an optional (`nil` on failure).
    @inlinable
    public func toOptional() -> Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The value, or `failed` on failure.
    @inlinable
    public func getOrElse(_ failed: Success) -> Success {
        if case .success(let value) = self { return value }
        return failed
    }
}

/// The value of `left`, or `right` if it failed.
@inlinable
public func ?? <T>(left: Try<T>, right: T) -> T {
    left.getOrElse(right)
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
