/// A future that succeeds with `lhs`'s value, or with `rhs()` if `lhs` fails: `lhs.recover { _ in rhs() }`.
///
/// `rhs` is evaluated only on failure, on ``defaultContext()`` as obtained where `??` is used. The result
/// cannot fail. Cancellation requests on the result are forwarded to `lhs` while it is pending.
///
/// ```swift
/// let count = fetchCount() ?? 0
/// ```
public func ?? <T, E>(lhs: Future<T, E>, rhs: @autoclosure @escaping @Sendable () -> T) -> Future<T, Never> {
    lhs.recover(context: defaultContext()) { _ in rhs() }
}

/// A future that succeeds with `lhs`'s value, or completes with the future `rhs()` if `lhs` fails:
/// `lhs.recoverWith { _ in rhs() }`.
///
/// `rhs` is evaluated only on failure, on ``defaultContext()`` as obtained where `??` is used; the
/// result's error type is that of `rhs`'s future. Cancellation requests on the result
/// are forwarded (to `lhs` while pending, then to `rhs()`'s future).
///
/// ```swift
/// let avatar = cache.avatar(for: user) ?? network.avatar(for: user)
/// ```
public func ?? <T, E, E1>(
    lhs: Future<T, E>,
    rhs: @autoclosure @escaping @Sendable () -> Future<T, E1>
) -> Future<T, E1> {
    lhs.recoverWith(context: defaultContext()) { _ in rhs() }
}
