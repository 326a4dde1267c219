#if Tracing
    import Futures
    import Tracing

    extension Tracer {
        /// Starts a span that lasts as long as the future `operation` returns: it ends when that future
        /// completes, not when `operation` returns.
        ///
        /// ```swift
        /// let profile = tracer.withFutureSpan("load profile") { span in
        ///     span.attributes["user.id"] = 42
        ///     // the span ends when the profile has loaded (or failed)
        ///     return loadProfile(id: 42)
        /// }
        /// ```
        ///
        /// - `operation` runs at once, on the calling thread, with the span's context current
        ///   (`ServiceContext.current`): spans started inside it, and — through the `ServiceContext` trait,
        ///   which `Tracing` enables — every callback registered inside it on any future (`map`,
        ///   `flatMap`, a limiter's `submit`, …), wherever it later runs, are children of this span.
        /// - The span ends when the future completes, just before the returned future completes with the
        ///   same result: code chained on the returned future sees the span ended. On a failure it records
        ///   the error (`recordError`) and sets the status `.error`. The attribute `futures.outcome` says how
        ///   the work ended: `success`, `failure`, `cancelled` (a failure with `FuturesError.cancelled` or
        ///   `CancellationError`; status `.error` with the message `cancelled`), `shutdown` (a failure with
        ///   `FuturesError.shutDown`: a drain at shutdown gave up on the work, `DrainingService` in
        ///   `FuturesServiceLifecycle`; status `.error` with the message `shut down`), or `abandoned`.
        /// - Cancellation: a request on the returned future sets the attribute
        ///   `futures.cancellation_requested` to `true`, adds an event of that name, and reaches the work's
        ///   future as one of its consumers (GUARANTEES.md G8). The work decides how it ends; the span ends
        ///   with it.
        /// - Abandoned work: if the work's future can never complete (its promise was dropped while its
        ///   error type cannot say so, or it was cancelled while it cannot fail, as `Future.after`), the span
        ///   ends when that future releases its callbacks, with `futures.outcome` `abandoned` and the status
        ///   `.error`; the returned future then never completes either.
        ///
        /// - Parameters:
        ///   - operationName: The span's name.
        ///   - context: The context the span is a child of (the current one by default, else a top-level
        ///     span).
        ///   - kind: The span's kind (`.internal` by default).
        ///   - function: The function that starts the span.
        ///   - fileID: The file that starts the span.
        ///   - line: The line that starts the span.
        ///   - operation: Starts the work and returns its future; receives the span.
        /// - Returns: A future with the work's result, completed just after the span ended.
        public func withFutureSpan<T, E>(
            _ operationName: String,
            context: @autoclosure () -> ServiceContext = .current ?? .topLevel,
            ofKind kind: SpanKind = .internal,
            function: String = #function,
            file fileID: String = #fileID,
            line: UInt = #line,
            _ operation: (Self.Span) -> Future<T, E>
        ) -> Future<T, E> {
            let span = startSpan(
                operationName, context: context(), ofKind: kind, at: DefaultTracerClock.now, function: function,
                file: fileID, line: line)
            return FutureSpan.run(span) { operation(span) }
        }
    }

    /// Starts a span with the process's tracer (`InstrumentationSystem.tracer`) that lasts as long as the
    /// future `operation` returns: it ends when that future completes, not when `operation` returns.
    ///
    /// ```swift
    /// let saved = withFutureSpan("save draft") { _ in store.save(draft) }
    /// ```
    ///
    /// The same as ``Tracing/Tracer/withFutureSpan(_:context:ofKind:function:file:line:_:)`` on the
    /// bootstrapped tracer (or the task-local one of `withTracer`): `operation` runs at once with the
    /// span's context current, the span ends when the work's future completes (just before the returned
    /// future does), and it records failures, cancellations, shutdowns, cancellation requests and abandoned
    /// work as described there.
    ///
    /// - Parameters:
    ///   - operationName: The span's name.
    ///   - context: The context the span is a child of (the current one by default, else a top-level span).
    ///   - kind: The span's kind (`.internal` by default).
    ///   - function: The function that starts the span.
    ///   - fileID: The file that starts the span.
    ///   - line: The line that starts the span.
    ///   - operation: Starts the work and returns its future; receives the span.
    /// - Returns: A future with the work's result, completed just after the span ended.
    public func withFutureSpan<T, E>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext = .current ?? .topLevel,
        ofKind kind: SpanKind = .internal,
        function: String = #function,
        file fileID: String = #fileID,
        line: UInt = #line,
        _ operation: (any Span) -> Future<T, E>
    ) -> Future<T, E> {
        let span = startSpan(
            operationName, context: context(), ofKind: kind, function: function, file: fileID, line: line)
        return FutureSpan.run(span) { operation(span) }
    }

    /// How a span follows a future: what both forms of `withFutureSpan` share.
    enum FutureSpan {
        /// Runs `operation` with `span`'s context current, and returns a future that follows the one it
        /// returned, ending `span` first (see `Tracer.withFutureSpan`).
        static func run<T, E>(_ span: any Span, _ operation: () -> Future<T, E>) -> Future<T, E> {
            let source = ServiceContext.withValue(span.context) { operation() }
            let ending = SpanEnding(span)
            let future = Future<T, E>()
            // Registered first: the attribute is set before the request reaches the work. Held weakly: only
            // the work's callback below keeps `ending`, so that releasing it unrun ends the span.
            future.onCancellationRequested { [weak ending] in ending?.cancellationRequested() }
            // One consumer of the work's future: a request on `future` reaches it.
            future.depend(upon: source, immediateExecutionContext) { result in
                ending.end(with: result)
                future.complete(result)
            }
            return future
        }
    }

    /// Ends a span once: with the future's result, or, if the future released its callbacks without ever
    /// completing, as abandoned when this is deallocated.
    final class SpanEnding: Sendable {
        let span: any Span
        private let ended = LockedBox(false)

        init(_ span: any Span) {
            self.span = span
        }

        /// A cancellation request reached the span's future.
        func cancellationRequested() {
            span.attributes["futures.cancellation_requested"] = true
            span.addEvent("futures.cancellation_requested")
        }

        /// Records the outcome and ends the span, unless it has ended.
        func end<T, E>(with result: Result<T, E>) {
            guard markEnded() else { return }
            switch result {
            case .success:
                span.attributes["futures.outcome"] = "success"
            case .failure(let error):
                let (outcome, message) = Self.outcome(of: error)
                span.attributes["futures.outcome"] = outcome
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error, message: message))
            }
            span.end()
        }

        /// The `futures.outcome` of a failure, and the message of its `.error` status.
        static func outcome(of error: any Error) -> (outcome: String, message: String?) {
            if error is CancellationError { return ("cancelled", "cancelled") }
            switch error as? FuturesError {
            case .cancelled: return ("cancelled", "cancelled")
            case .shutDown: return ("shutdown", "shut down")
            default: return ("failure", nil)
            }
        }

        /// Whether this call is the one that ends the span.
        private func markEnded() -> Bool {
            ended.withValue { ended in
                defer { ended = true }
                return !ended
            }
        }

        deinit {
            guard markEnded() else { return }
            span.attributes["futures.outcome"] = "abandoned"
            span.setStatus(SpanStatus(code: .error, message: "abandoned: the future will never complete"))
            span.end()
        }
    }
#endif
