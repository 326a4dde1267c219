import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// Starts a data request now and returns a future of its body and response.
    ///
    /// The request starts at once (the task is resumed before this method returns); use
    /// ``dataDeferred(for:)`` for a request that starts only when executed.
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
    public func dataFuture(for request: URLRequest) -> Future<(Data, URLResponse), any Error> {
        let future = Future<(Data, URLResponse), any Error>()
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
    /// Same outcomes as ``dataFuture(for:)``: every HTTP status is a success, transport errors fail,
    /// and a cancellation request cancels the task and fails with ``FuturesError/cancelled``.
    public func dataFuture(from url: URL) -> Future<(Data, URLResponse), any Error> {
        dataFuture(for: URLRequest(url: url))
    }

    /// A lazy data request: nothing is sent until the result is executed, and each execution sends
    /// the request again (the blog's `dataTask(with:) -> Async`).
    ///
    /// Each execution behaves as ``dataFuture(for:)``: every HTTP status is a success, transport errors
    /// fail, and a cancellation request on the future of ``Deferred/run()`` cancels that execution's task.
    public func dataDeferred(for request: URLRequest) -> Deferred<(Data, URLResponse), any Error> {
        Deferred(starting: { self.dataFuture(for: request) })
    }

    /// A lazy GET request for `url`: sent anew on each execution; see ``dataDeferred(for:)``.
    public func dataDeferred(from url: URL) -> Deferred<(Data, URLResponse), any Error> {
        dataDeferred(for: URLRequest(url: url))
    }
}
