import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// Starts a data request now and returns a future of its body and response.
    ///
    /// The request starts at once (the task is resumed before this method returns); use
    /// ``dataDeferred(for:file:line:)`` for a request that starts only when executed.
    ///
    /// - Success: any response the server sent, **whatever its status code** (a 404 is a success
    ///   here, as with `URLSession.data(for:)`; inspect `(response as? HTTPURLResponse)?.statusCode`).
    /// - Failure: the transport error `URLSession` reported (for example connection refused), as
    ///   `any Error`.
    /// - Cancellation: ``Future/requestCancellation()`` on the returned future calls
    ///   `URLSessionTask.cancel()`; the future then fails with ``FuturesError/cancelled`` (rather than
    ///   `URLError(.cancelled)`, so every cancellation in the library looks the same). A request after
    ///   completion does nothing.
    ///
    /// The future completes on the session's delegate queue; callbacks you add run on their own contexts.
    /// While failure tracing is on, its ``Future/failureTrace`` starts with `dataFuture at file:line` (where
    /// you called this method).
    public func dataFuture(
        for request: URLRequest, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<(Data, URLResponse), any Error> {
        let future = Future<(Data, URLResponse), any Error>()
        if FailureTracing.isOn {
            FailureTracing.produced(future, name: "dataFuture", site: CallSite(file: file, line: line))
        }
        let task = dataTask(with: request) { data, response, error in
            if let error {
                let cancelled =
                    (error as? URLError)?.code == .cancelled || (error as NSError).code == NSURLErrorCancelled
                if cancelled && future.isCancellationRequested {
                    future.complete(.failure(FuturesError.cancelled))
                } else {
                    future.complete(.failure(error))
                }
            } else if let response {
                future.complete(.success((data ?? Data(), response)))
            } else {
                future.complete(.failure(URLError(.badServerResponse)))
            }
        }
        future.onCancellationRequested { task.cancel() }
        task.resume()
        return future
    }

    /// Starts a GET request for `url` now and returns a future of its body and response.
    ///
    /// Same outcomes as ``dataFuture(for:file:line:)``: every HTTP status is a success, transport errors fail,
    /// and a cancellation request cancels the task and fails with ``FuturesError/cancelled``.
    public func dataFuture(
        from url: URL, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<(Data, URLResponse), any Error> {
        dataFuture(for: URLRequest(url: url), file: file, line: line)
    }

    /// A lazy data request: nothing is sent until the result is executed, and each execution sends
    /// the request again (the blog's `dataTask(with:) -> Async`).
    ///
    /// Each execution behaves as ``dataFuture(for:file:line:)``: every HTTP status is a success, transport errors
    /// fail, and a cancellation request on the future of ``Deferred/run()`` cancels that execution's task.
    public func dataDeferred(
        for request: URLRequest, file: StaticString = #fileID, line: UInt = #line
    ) -> Deferred<(Data, URLResponse), any Error> {
        Deferred(starting: { self.dataFuture(for: request, file: file, line: line) })
    }

    /// A lazy GET request for `url`: sent anew on each execution; see ``dataDeferred(for:file:line:)``.
    public func dataDeferred(
        from url: URL, file: StaticString = #fileID, line: UInt = #line
    ) -> Deferred<(Data, URLResponse), any Error> {
        dataDeferred(for: URLRequest(url: url), file: file, line: line)
    }
}

extension URLSession {
    /// Starts a data task for `request` and returns a future of its body and response that reports
    /// progress: bytes received, of the response's expected content length when the server sends one
    /// (until then, and without one, the total is unknown, `0`).
    ///
    /// Like ``dataFuture(for:file:line:)`` (same outcomes on failure and on cancellation), but the task runs in a
    /// session of its own, made with this session's `configuration` and a delegate that counts the bytes,
    /// so this session's delegate, if any, does not see it (and connections are not shared with this
    /// session). Observe with ``Future/progress``; the future is created with its progress declared, so futures
    /// derived from it pass the progress on.
    ///
    /// ```swift
    /// let download = URLSession.shared.dataFutureReportingProgress(
    ///     for: URLRequest(url: url))
    /// download.progress.onUpdate(.main) { snapshot in
    ///     bar.progress = snapshot.fractionCompleted
    /// }
    /// ```
    ///
    /// While failure tracing is on, its ``Future/failureTrace`` starts with
    /// `dataFutureReportingProgress at file:line` (where you called this method).
    public func dataFutureReportingProgress(
        for request: URLRequest, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<(Data, URLResponse), any Error> {
        let promise = Promise<(Data, URLResponse), any Error>(progressTotal: 0)
        let future = promise.future
        if FailureTracing.isOn {
            FailureTracing.produced(future, name: "dataFutureReportingProgress", site: CallSite(file: file, line: line))
        }
        // A session of its own, with this session's configuration: swift-corelibs-foundation does not call
        // a task's own delegate (`URLSessionTask.delegate`). It is invalidated once its one task is done.
        let session = URLSession(
            configuration: configuration,
            delegate: ProgressReportingDataDelegate(promise: promise),
            delegateQueue: nil
        )
        let task = session.dataTask(with: request)
        session.finishTasksAndInvalidate()
        future.onCancellationRequested { task.cancel() }
        task.resume()
        return future
    }
}

/// Collects a data task's body and reports the bytes received to its promise; completes the promise when
/// the task ends.
private final class ProgressReportingDataDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Received {
        var data = Data()
        var response: URLResponse?
        var expected: Int64 = 0
    }

    private let promise: Promise<(Data, URLResponse), any Error>
    private let received = LockedBox(Received())

    init(promise: Promise<(Data, URLResponse), any Error>) {
        self.promise = promise
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let expected = max(0, response.expectedContentLength)
        received.withValue {
            $0.response = response
            $0.expected = expected
        }
        promise.reportProgress(completed: 0, of: expected)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (count, expected) = received.withValue { received -> (Int64, Int64) in
            received.data.append(data)
            return (Int64(received.data.count), received.expected)
        }
        promise.reportProgress(completed: count, of: max(expected, count))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (data, response) = received.withValue { ($0.data, $0.response ?? task.response) }
        if let error {
            let cancelled =
                (error as? URLError)?.code == .cancelled || (error as NSError).code == NSURLErrorCancelled
            if cancelled && promise.future.isCancellationRequested {
                promise.complete(.failure(FuturesError.cancelled))
            } else {
                promise.complete(.failure(error))
            }
        } else if let response {
            promise.complete(.success((data, response)))
        } else {
            promise.complete(.failure(URLError(.badServerResponse)))
        }
    }
}
