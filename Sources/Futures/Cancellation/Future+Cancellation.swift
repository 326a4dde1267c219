extension Future {
    /// Requests cancellation of this future (``requestCancellation()``) when `token` fires.
    ///
    /// The link is removed when this future completes, so a long-lived token does not collect
    /// handlers; the token does not keep this future alive.
    ///
    /// - Returns: This future, to chain further calls.
    @discardableResult
    public func requestCancellation(when token: CancellationToken) -> Self {
        if isCompleted || token.signal == nil { return self }
        let registration = token.onCancellationRequested { [weak self] in self?.requestCancellation() }
        observe(immediateExecutionContext) { _ in registration.dispose() }
        return self
    }

    /// Wraps a completion-handler API that can be cancelled (a `URLSessionTask`, a timer, an
    /// operation) in a future whose cancellation request reaches it.
    ///
    /// `start` runs synchronously, on the calling thread, before this initializer returns. It starts
    /// the work, passes `complete` to it, and returns the work's cancel hook:
    ///
    /// ```swift
    /// let download = Future<Data, any Error>(cancellable: { complete in
    ///     let task = session.dataTask(with: url) { data, _, error in
    ///         complete(
    ///             data.map { .success($0) }
    ///                 ?? .failure(error ?? URLError(.unknown)))
    ///     }
    ///     task.resume()
    ///     return { task.cancel() }
    /// })
    /// download.requestCancellation()  // calls task.cancel() exactly once
    /// ```
    ///
    /// - The cancel hook runs at most once: at the first ``requestCancellation()`` while the future is
    ///   pending, on the thread that requests it. It is released, never called, once the future completes.
    /// - On cancellation, if `E` can hold ``FuturesError`` (`any Error` or `FuturesError`), the future
    ///   fails with ``FuturesError/cancelled`` and then the hook runs, so an outcome the API reports while
    ///   being cancelled (its own cancellation error, from another thread) never wins the race; otherwise
    ///   the hook runs and the future waits for the API to report its own outcome through `complete`.
    /// - The first call of `complete` wins. A later call is ignored; it is reported as
    ///   ``FuturesDiagnostic/futureCompletedTwice(file:line:)`` unless cancellation was requested
    ///   (an API calling back after being cancelled is expected).
    ///
    /// Spell the `cancellable:` label. A trailing closure, `Future { complete in … }`, is
    /// ``init(file:line:resolver:)``, the form without a cancel hook; this initializer is disfavoured so
    /// that the two never make such a call ambiguous.
    @_disfavoredOverload
    public convenience init(
        file: StaticString = #fileID,
        line: UInt = #line,
        cancellable start: (_ complete: @escaping @Sendable (Result<T, E>) -> Void) -> (@Sendable () -> Void)
    ) {
        self.init()
        if FailureTracing.isOn { FailureTracing.produced(self, name: "Future", site: CallSite(file: file, line: line)) }
        let hook = start { [self] result in
            if !self.complete(result), !self.isCancellationRequested {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(file)", line: line))
            }
        }
        onCancellationRequested { [weak self] in
            // Completed first: the API may report its own outcome (from another thread) as soon as the hook
            // cancels it, and that must not replace the defined outcome of a request.
            if let error = FuturesError.cancelled as? E {
                self?.complete(.failure(error))
            }
            hook()
        }
    }
}

extension Future {
    /// ``Promise/cancellationToken`` for a face's own write end in another module of this package: the
    /// token that fires when a consumer requests cancellation of this future while it is pending.
    package final var writeEndCancellationToken: CancellationToken {
        CancellationToken(signal: self)
    }
}

extension Promise {
    /// The token that fires when a consumer calls ``Future/requestCancellation()`` on this promise's
    /// future (while it is pending). Pass it to the work that completes the promise.
    public var cancellationToken: CancellationToken {
        CancellationToken(signal: future)
    }

    /// `true` once cancellation of the future was requested while it was pending.
    ///
    /// The promise is not completed by the request: check this flag (or register with
    /// ``onCancellationRequested(_:)``) and complete it, typically with a cancellation error.
    public var isCancellationRequested: Bool {
        future.isCancellationRequested
    }

    /// Registers `handler` to run once when cancellation of the future is requested while it is
    /// pending; it runs on the requesting thread (at once, on the calling thread, if already
    /// requested) and is released without running if the future completes first.
    ///
    /// - Returns: A registration whose ``CancellationRegistration/dispose()`` unregisters the handler.
    @discardableResult
    public func onCancellationRequested(_ handler: @escaping @Sendable () -> Void) -> CancellationRegistration {
        cancellationToken.onCancellationRequested(handler)
    }
}

/// Whether `error` means "cancelled": ``FuturesError/cancelled`` or Swift's `CancellationError`.
@usableFromInline
package func isCancellationError(_ error: any Error) -> Bool {
    error is CancellationError || (error as? FuturesError) == .cancelled
}
