/// Turns a completion-handler call of the `(value?, error?)` shape into a future.
///
/// `scope` runs synchronously, on the calling thread, and receives the completion handler to pass on.
/// The handler may be called from any thread: a non-nil value succeeds the future, else a non-nil error
/// fails it. A call with both `nil` is ignored (the future stays pending), as in BrightFutures; only the
/// first completing call counts, and later ones are reported as
/// ``FuturesDiagnostic/futureCompletedTwice(file:line:)``.
///
/// ```swift
/// let user: Future<User, APIError> = materialize { done in
///     api.fetchUser(id, completion: done)
/// }
/// ```
public func materialize<T, E>(
    file: StaticString = #fileID,
    line: UInt = #line,
    _ scope: (_ completion: @escaping @Sendable (T?, E?) -> Void) -> Void
) -> Future<T, E> {
    Future(file: file, line: line) { complete in
        scope { value, error in
            if let value {
                complete(.success(value))
            } else if let error {
                complete(.failure(error))
            }
        }
    }
}

/// Turns a completion-handler call that can only succeed, `(value)`, into a `Future<T, Never>`.
///
/// `scope` runs synchronously, on the calling thread; the handler it receives may be called from any
/// thread, once (later calls are ignored and reported).
public func materialize<T>(
    file: StaticString = #fileID,
    line: UInt = #line,
    _ scope: (_ completion: @escaping @Sendable (T) -> Void) -> Void
) -> Future<T, Never> {
    Future(file: file, line: line) { complete in
        scope { value in complete(.success(value)) }
    }
}

/// Turns a completion-handler call that only reports an error, `(error?)`, into a `Future<Void, E>`.
///
/// `scope` runs synchronously, on the calling thread; the handler it receives may be called from any
/// thread: `nil` succeeds the future, an error fails it. Later calls are ignored and reported.
public func materialize<E>(
    file: StaticString = #fileID,
    line: UInt = #line,
    _ scope: (_ completion: @escaping @Sendable (E?) -> Void) -> Void
) -> Future<Void, E> {
    Future(file: file, line: line) { complete in
        scope { error in
            if let error {
                complete(.failure(error))
            } else {
                complete(.success(()))
            }
        }
    }
}
