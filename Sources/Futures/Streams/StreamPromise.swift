/// The write end of a ``FutureStream``: add results to it, and finish it.
///
/// ```swift
/// let promise = StreamPromise<Double>(capacity: 10)
/// sensor.onReading = { promise.success($0) }
/// sensor.onError = { promise.failure($0) }
/// return promise.stream
/// ```
///
/// Every method may be called from any thread; results from one thread keep their order, and results
/// from racing threads are delivered to every subscriber in one and the same order.
///
/// ## Ending, and misuse
/// - Results published after ``finish()`` or ``finish(throwing:)`` are ignored (the `try` forms say so
///   by returning `false`).
/// - When the promise is deallocated without being finished, its stream finishes (like
///   `AsyncStream`'s continuation), so no `for await` loop waits forever.
public final class StreamPromise<T: Sendable>: Sendable {
    /// The stream this promise writes.
    public let stream: FutureStream<T>

    /// Creates a promise and its stream, which keeps the last `capacity` results for replay.
    ///
    /// The default, `Int.max`, keeps every result (SimpleFutures' default); choose a capacity for a
    /// long-lived stream to bound its memory. `0` keeps nothing: subscribers get only later results.
    ///
    /// - Precondition: `capacity >= 0`. A negative capacity stops the program with the message
    ///   "FutureStream: capacity must not be negative" (it is a programming error, not a runtime
    ///   condition).
    public init(capacity: Int = Int.max) {
        self.stream = FutureStream(openWithCapacity: capacity)
    }

    deinit {
        stream.finish(nil)
    }

    /// Adds `result` (a value or a per-element failure) to the stream.
    @inlinable
    public func complete(_ result: Result<T, any Error>) {
        stream.publish(result)
    }

    /// Adds the value `value` to the stream.
    @inlinable
    public func success(_ value: T) {
        stream.publish(.success(value))
    }

    /// Adds the per-element failure `error` to the stream; the stream stays open.
    @inlinable
    public func failure(_ error: any Error) {
        stream.publish(.failure(error))
    }

    /// Adds `result` unless the stream has ended; returns whether it was added.
    @discardableResult
    @inlinable
    public func tryComplete(_ result: Result<T, any Error>) -> Bool {
        stream.publish(result)
    }

    /// Adds `future`'s result to the stream when it completes.
    ///
    /// The promise stays alive until then, so dropping it right after this call is fine.
    ///
    /// - Parameters:
    ///   - context: Where the hand-over runs; ``defaultContext()`` if omitted.
    ///   - future: The future whose result is added.
    @usableFromInline
    package func completeWith(context: ExecutionContext = defaultContext(), future: Future<T, any Error>) {
        // Captures the promise, so dropping it right after this call does not finish the stream early.
        future.onComplete(context) { [self] result in self.stream.publish(result) }
    }

    /// Adds every result of `stream` (its replay, then live ones) to this promise's stream.
    ///
    /// The promise stays alive as long as `stream` can deliver, so dropping it right after this call
    /// is fine.
    ///
    /// `stream` ending does not finish this one (a promise may collect several sources); finish it
    /// yourself when you are done.
    ///
    /// - Parameters:
    ///   - context: Where the hand-over runs; ``defaultContext()`` if omitted.
    ///   - stream: The source stream.
    @usableFromInline
    package func completeWith(context: ExecutionContext = defaultContext(), stream: FutureStream<T>) {
        // Captures the promise: it stays alive (its stream open) while `stream` can still deliver.
        stream.subscribe(context: context) { [self] event in
            if case .element(let result) = event { self.stream.publish(result) }
        }
    }

    /// Ends the stream normally: subscribers' `for await` loops end after the last result.
    /// Calling it again, or after ``finish(throwing:)``, does nothing.
    public func finish() {
        stream.finish(nil)
    }

    /// Ends the stream with a terminal failure: `for try await` loops throw `error` after the last
    /// result. Calling it again, or after ``finish()``, does nothing.
    public func finish(throwing error: any Error) {
        stream.finish(error)
    }
}
