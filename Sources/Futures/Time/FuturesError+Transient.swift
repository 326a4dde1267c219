extension FuturesError {
    /// Whether `retry` tries again after `error` when you give it no `while:`: the default condition of
    /// ``Future/retry(_:backoff:clock:while:file:line:_:)``, ``Deferred/retry(_:backoff:clock:while:file:line:)``
    /// and their other forms.
    ///
    /// ```swift
    /// // Transient failures only, and never a 4xx answer:
    /// Future.retry(5, backoff: .exponential(initial: .milliseconds(100)), while: { error in
    ///     FuturesError.isTransient(error) && !(error is ClientError)
    /// }) { api.fetchPage() }
    /// ```
    ///
    /// A failure is transient unless it says the work was **cancelled** or **refused**, which another
    /// attempt cannot change:
    /// - ``FuturesError/cancelled``: the work was asked to stop and said so (a cancellation request on
    ///   it, a `CancellationSource`), or a ``ConcurrencyLimiter`` ended it unrun: refused because the limiter
    ///   was closed (``ConcurrencyLimiter/close()``: a drain, a shutdown), or removed from its queue by a
    ///   request or by the close;
    /// - ``FuturesError/shutDown``: a drain gave up on the work at shutdown;
    /// - Swift's `CancellationError` (a cancelled task, `Future(operation:)` included);
    /// - ``CombinatorError/invalidationTokenInvalidated``: whoever wanted the result invalidated its token;
    /// - any of these wrapped in ``TimeoutError/failure(_:)`` or ``CombinatorError/external(_:)``.
    ///
    /// Every other failure is transient: your own errors, ``FuturesError/timedOut`` and
    /// ``TimeoutError/timedOut`` (a slow attempt may be faster next time), ``FuturesError/brokenPromise``,
    /// ``FuturesError/noSuchElement``, ``FuturesError/invalidValue``. A typed failure of your own that
    /// means "closed" (a limiter's `failingWith:` error) is transient to this function: pass a `while:`
    /// that says otherwise.
    ///
    /// Runs on the calling thread; it only looks at `error`.
    public static func isTransient(_ error: any Error) -> Bool {
        if isCancellationError(error) { return false }
        if let wrapping = error as? any WrappingFailure {
            return wrapping.wrappedFailure.map(isTransient) ?? wrapping.isTransientItself
        }
        guard let error = error as? FuturesError else { return true }
        // Every case is named: a new one must be classified here.
        switch error {
        case .cancelled, .shutDown:
            return false
        case .brokenPromise, .noSuchElement, .timedOut, .invalidValue:
            return true
        }
    }
}

/// An error of the library that wraps the failure of the future it worked on (``TimeoutError``,
/// ``CombinatorError``): ``FuturesError/isTransient(_:)`` looks inside it.
protocol WrappingFailure: Error {
    /// The wrapped failure, or `nil` when the error is one of the wrapper's own cases.
    var wrappedFailure: (any Error)? { get }
    /// For the wrapper's own cases: whether another attempt may succeed.
    var isTransientItself: Bool { get }
}

extension TimeoutError: WrappingFailure {
    var wrappedFailure: (any Error)? {
        switch self {
        case .timedOut: nil
        case .failure(let failure): failure
        }
    }

    var isTransientItself: Bool { true }
}

extension CombinatorError: WrappingFailure {
    var wrappedFailure: (any Error)? {
        switch self {
        case .noSuchElement, .invalidationTokenInvalidated, .illegalState: nil
        case .external(let failure): failure
        }
    }

    var isTransientItself: Bool {
        switch self {
        case .invalidationTokenInvalidated: false
        case .noSuchElement, .illegalState, .external: true
        }
    }
}
