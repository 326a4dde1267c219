import Futures

/// A stream of results (values or errors) that keeps the last `capacity` of them: SimpleFutures'
/// writable `FutureStream`.
///
/// A thin face over the core's `Futures.FutureStream` (`base`): every subscriber first receives the
/// kept results, oldest first, then each new one, in order, one call at a time on its context. As in
/// SimpleFutures, whoever holds a stream may add results (`success(_:)`, `failure(_:)`,
/// `complete(_:)`, `completeWith(context:stream:)`, `completeWith(context:future:)`) and the stream
/// never ends.
///
/// ```swift
/// let stream = FutureStream<Int>(capacity: 10)
/// stream.onSuccess(context: ImmediateContext()) { value in print(value) }
/// stream.success(1)
/// stream.success(2)
/// ```
///
/// A `FutureStream` is a small value holding a reference: copies are the same stream.
public struct FutureStream<T: Sendable>: Sendable {
    /// The core stream this one is a face of.
    public let base: Futures.FutureStream<T>

    /// Wraps a core stream (the same stream).
    @inlinable
    public init(_ base: Futures.FutureStream<T>) {
        self.base = base
    }

    /// Creates an empty stream that keeps up to `capacity` results (`Int.max`, the default, keeps all).
    ///
    /// - Precondition: `capacity >= 0` (a negative capacity stops the program with a message).
    @inlinable
    public init(capacity: Int = Int.max) {
        self.base = Futures.FutureStream<T>(openWithCapacity: capacity)
    }

    /// Creates a stream and lets `resolver` add results: `resolver` runs at once, on the calling thread,
    /// with a function that adds one result per call, from any thread.
    @inlinable
    public init(capacity: Int = Int.max, resolver: (@escaping @Sendable (Try<T>) -> Void) -> Void) {
        self.init(capacity: capacity)
        let base = self.base
        resolver { result in base.publish(result) }
    }

    /// Creates a stream that receives every result of `dependent` (handed over on `context`).
    @inlinable
    public init(
        capacity: Int = Int.max, context: ExecutionContext = QueueContext.futuresDefault, dependent: FutureStream<T>
    ) {
        self.init(capacity: capacity)
        completeWith(context: context, stream: dependent)
    }

    /// Creates a stream holding one value.
    @inlinable
    public init(value: T, capacity: Int = Int.max) {
        self.init(capacity: capacity)
        success(value)
    }

    /// Creates a stream holding one error.
    @inlinable
    public init(error: any Error, capacity: Int = Int.max) {
        self.init(capacity: capacity)
        failure(error)
    }

    /// How many results the stream keeps (at most its capacity).
    @inlinable
    public var count: Int { base.count }

    // MARK: - Writing

    /// Adds `result` and hands it to every subscriber. The oldest kept result is dropped when the
    /// stream holds `capacity` results.
    @inlinable
    public func complete(_ result: Try<T>) {
        base.publish(result)
    }

    /// Adds a value.
    @inlinable
    public func success(_ value: T) {
        base.publish(.success(value))
    }

    /// Adds an error.
    @inlinable
    public func failure(_ error: any Error) {
        base.publish(.failure(error))
    }

    /// Adds every result of `stream` (its kept ones, then each new one), handed over on `context`.
    public func completeWith(context: ExecutionContext = QueueContext.futuresDefault, stream: FutureStream<T>) {
        let base = self.base
        stream.base.onComplete(context: context) { result in base.publish(result) }
    }

    /// Adds `future`'s result once it has one, handed over on `context`.
    public func completeWith(context: ExecutionContext = QueueContext.futuresDefault, future: Future<T>) {
        let base = self.base
        future.base.onComplete(context) { result in base.publish(result) }
    }

    /// Adds every result of the stream in `stream`, or the error it holds.
    public func completeWith(context: ExecutionContext = QueueContext.futuresDefault, stream: Try<FutureStream<T>>) {
        switch stream {
        case .success(let stream): completeWith(context: context, stream: stream)
        case .failure(let error): failure(error)
        }
    }

    /// Adds the result of the future in `future` once it has one, or the error it holds.
    public func completeWith(context: ExecutionContext = QueueContext.futuresDefault, future: Try<Future<T>>) {
        switch future {
        case .success(let future): completeWith(context: context, future: future)
        case .failure(let error): failure(error)
        }
    }

    // MARK: - Callbacks

    /// Registers `completion` for every result (the kept ones first, then each new one, in order).
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; calls never overlap. `QueueContext.futuresDefault` if omitted.
    ///   - cancelToken: `cancel(cancelToken)` on this stream unregisters `completion` and releases it.
    ///   - completion: Receives each result.
    @inlinable
    public func onComplete(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        completion: @escaping @Sendable (Try<T>) -> Void
    ) {
        base.onComplete(context: context, cancelToken: cancelToken ?? .unused, completion: completion)
    }

    /// Registers `completion` for every value (failures are skipped); see
    /// `onComplete(context:cancelToken:completion:)`.
    @inlinable
    public func onSuccess(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        completion: @escaping @Sendable (T) -> Void
    ) {
        base.onSuccess(context: context, cancelToken: cancelToken ?? .unused, completion: completion)
    }

    /// Registers `completion` for every error (values are skipped); see
    /// `onComplete(context:cancelToken:completion:)`.
    @inlinable
    public func onFailure(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        completion: @escaping @Sendable (any Error) -> Void
    ) {
        base.onFailure(context: context, cancelToken: cancelToken ?? .unused, completion: completion)
    }

    /// Unregisters every callback and combinator registered on this stream with `cancelToken`; they
    /// receive nothing more and are released at once.
    ///
    /// - Returns: `true` if something registered with `cancelToken` on this stream was still subscribed.
    @inlinable
    @discardableResult
    public func cancel(_ cancelToken: CancelToken) -> Bool {
        base.cancel(cancelToken)
    }

    // MARK: - Combinators
    //
    // Each derived stream has this stream's capacity and receives results in this stream's order. With a
    // `cancelToken`, `cancel(cancelToken)` on this stream stops the closure; the derived stream then
    // receives nothing more.

    /// Transforms every value; what `mapping` throws becomes a failed result. Failures pass through.
    @inlinable
    public func map<M>(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        mapping: @escaping @Sendable (T) throws -> M
    ) -> FutureStream<M> {
        FutureStream<M>(base.map(context: context, cancelToken: cancelToken ?? .unused, mapping: mapping))
    }

    /// Adds the results of the stream `mapping` returns for each value. Failures pass through.
    @inlinable
    public func flatMap<M>(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        mapping: @escaping @Sendable (T) throws -> FutureStream<M>
    ) -> FutureStream<M> {
        FutureStream<M>(base.flatMap(context: context, cancelToken: cancelToken ?? .unused) { try mapping($0).base })
    }

    /// Adds the result of the future `mapping` returns for each value. Failures pass through.
    @inlinable
    public func flatMap<M>(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        mapping: @escaping @Sendable (T) throws -> Future<M>
    ) -> FutureStream<M> {
        FutureStream<M>(base.flatMap(context: context, cancelToken: cancelToken ?? .unused) { try mapping($0).base })
    }

    /// Keeps the values `filter` accepts; a rejected value becomes a `FuturesError.noSuchElement`
    /// failure (as in SimpleFutures), what `filter` throws a failure too.
    @inlinable
    public func withFilter(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        filter: @escaping @Sendable (T) throws -> Bool
    ) -> FutureStream<T> {
        FutureStream<T>(base.withFilter(context: context, cancelToken: cancelToken ?? .unused, filter: filter))
    }

    /// Runs `apply` with every value (the same as `onSuccess(context:cancelToken:completion:)`).
    @inlinable
    public func forEach(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        apply: @escaping @Sendable (T) -> Void
    ) {
        base.onSuccess(context: context, cancelToken: cancelToken ?? .unused, completion: apply)
    }

    /// Runs `completion` with every value, then passes every result on unchanged.
    @inlinable
    public func andThen(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        completion: @escaping @Sendable (T) -> Void
    ) -> FutureStream<T> {
        FutureStream<T>(base.andThen(context: context, cancelToken: cancelToken ?? .unused, completion: completion))
    }

    /// Replaces every failure with the value `recovery` returns (or the error it throws).
    @inlinable
    public func recover(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        recovery: @escaping @Sendable (any Error) throws -> T
    ) -> FutureStream<T> {
        FutureStream<T>(base.recover(context: context, cancelToken: cancelToken ?? .unused, recovery: recovery))
    }

    /// Replaces every failure with the results of the stream `recovery` returns.
    @inlinable
    public func recoverWith(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        recovery: @escaping @Sendable (any Error) throws -> FutureStream<T>
    ) -> FutureStream<T> {
        FutureStream<T>(
            base.recoverWith(context: context, cancelToken: cancelToken ?? .unused) { try recovery($0).base })
    }

    /// Replaces every failure with the result of the future `recovery` returns.
    @inlinable
    public func recoverWith(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        recovery: @escaping @Sendable (any Error) throws -> Future<T>
    ) -> FutureStream<T> {
        FutureStream<T>(
            base.recoverWith(context: context, cancelToken: cancelToken ?? .unused) { try recovery($0).base })
    }

    /// Transforms every error; values pass through.
    @inlinable
    public func mapError(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        mapping: @escaping @Sendable (any Error) -> any Error
    ) -> FutureStream<T> {
        FutureStream<T>(base.mapError(context: context, cancelToken: cancelToken ?? .unused, mapping: mapping))
    }
}

/// The write end of a `FutureStream`: SimpleFutures' `StreamPromise`.
///
/// ```swift
/// let promise = StreamPromise<Int>(capacity: 10)
/// promise.stream.onSuccess(context: ImmediateContext()) { value in
///     print(value)
/// }
/// promise.success(1)
/// ```
public struct StreamPromise<T: Sendable>: Sendable {
    /// The stream this promise adds to.
    public let stream: FutureStream<T>

    /// Creates a promise of an empty stream that keeps up to `capacity` results.
    ///
    /// - Precondition: `capacity >= 0` (a negative capacity stops the program with a message).
    @inlinable
    public init(capacity: Int = Int.max) {
        self.stream = FutureStream<T>(capacity: capacity)
    }

    /// Adds `result` to the stream.
    @inlinable
    public func complete(_ result: Try<T>) { stream.complete(result) }

    /// Adds a value to the stream.
    @inlinable
    public func success(_ value: T) { stream.success(value) }

    /// Adds an error to the stream.
    @inlinable
    public func failure(_ error: any Error) { stream.failure(error) }

    /// Adds `future`'s result once it has one, handed over on `context`.
    public func completeWith(context: ExecutionContext = QueueContext.futuresDefault, future: Future<T>) {
        stream.completeWith(context: context, future: future)
    }

    /// Adds every result of `stream`, handed over on `context`.
    public func completeWith(context: ExecutionContext = QueueContext.futuresDefault, stream: FutureStream<T>) {
        self.stream.completeWith(context: context, stream: stream)
    }
}
