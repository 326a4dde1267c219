extension Future {
    /// Watches this future without being one of its consumers: runs `body` with the result on `context`
    /// once the future completes (now, if it has).
    ///
    /// Use it for what must know when work really ends but must not keep it alive — cache clean-up,
    /// logging, metrics, holding a resource until the work has stopped:
    ///
    /// ```swift
    /// let download = session.dataFuture(from: url)
    /// // does not keep the download alive
    /// download.observe { _ in cache.forget(url) }
    /// download.timeout(after: .seconds(5))         // a timeout still reaches it
    /// ```
    ///
    /// - Cancellation: an observer is not a consumer (GUARANTEES.md G8). A cancellation request that
    ///   travels upstream counts the consumers only, so observing a future never holds back a request that
    ///   every consumer made; and a request on this future reaches its producer as before.
    /// - Where `body` runs: on `context` (``defaultContext()`` if omitted); on the immediate context, on
    ///   the completing thread through the trampoline, ahead of the callbacks. Observers keep no order
    ///   relative to the callbacks.
    /// - Failures: observing does not count as handling a failure: a failed future that nobody else looked
    ///   at is still reported (``FuturesDiagnostics/unobservedFailures``).
    /// - Memory: `body` is released once it has run, or with the future if it never completes.
    ///
    /// - Returns: This future, to chain further calls.
    @discardableResult
    public final func observe(
        _ context: ExecutionContext = defaultContext(),
        _ body: @escaping @Sendable (Result<T, E>) -> Void
    ) -> Self {
        if context.isImmediate {
            onCompletionObserved { result in
                func runBody() { body(result) }
                if Trampoline.runInline(runBody) == nil { Trampoline.run(runBody) { $0() } }
            }
        } else {
            let scheduled = ScheduledCallback(context: context, body: body)
            onCompletionObserved { result in scheduled.submit(result) }
        }
        return self
    }
}
