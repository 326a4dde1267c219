import Futures

/// A value that will be there later, or an error: SimpleFutures' one-parameter, writable `Future`.
///
/// A thin face over the core's `Futures.Future` with an untyped error (`base`): every callback,
/// combinator and completion goes through the core, with its guarantees (each callback exactly once on
/// its context, bounded stack at any depth, closures released once they ran or were cancelled).
///
/// As in SimpleFutures, whoever holds a future may complete it (`success(_:)`, `failure(_:)`,
/// `complete(_:)`, `completeWith(context:future:)`); the first completion wins, and a second one is
/// reported at the caller's line.
///
/// ```swift
/// let future = Future<Int>()
/// future.onSuccess(context: ImmediateContext()) { value in print(value) }
/// future.success(42)
/// ```
///
/// A `Future` is a small value holding a reference: copies are the same future.
public struct Future<T: Sendable>: Sendable {
    /// The core future this one is a face of. Use it to mix this module with `import Futures` code.
    public let base: Futures.Future<T, any Error>

    /// Wraps a core future (no copy: the same future).
    @inlinable
    public init(_ base: Futures.Future<T, any Error>) {
        self.base = base
    }

    /// Creates a pending future; complete it with `success(_:)`, `failure(_:)` or `complete(_:)`.
    @inlinable
    public init() {
        self.base = Futures.Future<T, any Error>()
    }

    /// Creates a future completed with `value`.
    @inlinable
    public init(value: T) {
        self.base = Futures.Future<T, any Error>(value: value)
    }

    /// Creates a future failed with `error`.
    @inlinable
    public init(error: any Error) {
        self.base = Futures.Future<T, any Error>(error: error)
    }

    /// Creates a future that completes with `dependent`'s result; the hand-over runs on `context`.
    ///
    /// It is one consumer of `dependent` (a cancellation request on it is passed on as that consumer's
    /// ask) and a step named `Future` at the caller's `file` and `line` (failure traces, the
    /// pending-futures report): the core's `Future(context:dependent:file:line:)`.
    @inlinable
    public init(
        context: ExecutionContext = QueueContext.futuresDefault,
        dependent: Future<T>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(Futures.Future(context: context, dependent: dependent.base, file: file, line: line))
    }

    /// Creates a pending future and lets `resolver` complete it: `resolver` runs at once, on the calling
    /// thread, with a completion function that may be called from any thread (the first call wins).
    ///
    /// - Parameters:
    /// The future is listed in failure traces and the pending-futures report as `Future`, made at
    /// `file`:`line`.
    ///
    /// - Parameters:
    ///   - file: Where the future is recorded and a later call of the completion function is reported
    ///     (`FuturesDiagnostic.futureCompletedTwice`); the caller's file if omitted.
    ///   - line: The line for that record and report; the caller's line if omitted.
    ///   - resolver: Runs at once with the completion function.
    public init(
        file: StaticString = #fileID,
        line: UInt = #line,
        resolver: (@escaping @Sendable (Try<T>) -> Void) -> Void
    ) {
        self.init(Futures.Future<T, any Error>.produced("Future", file: file, line: line))
        let base = self.base
        resolver { result in Future(base).complete(result, reportingAt: file, line: line) }
    }

    // MARK: - State

    /// The result, or `nil` while pending.
    @inlinable
    public var result: Try<T>? {
        base.result
    }

    /// Whether the future has a result.
    @inlinable
    public var completed: Bool { base.isCompleted }

    // MARK: - Writing

    /// Completes the future with `result`.
    ///
    /// The first completion wins. Completing a completed future changes nothing and is reported as
    /// `FuturesDiagnostic.futureCompletedTwice` through `FuturesDiagnostics`, at `file`:`line`
    /// (SimpleFutures asserted in debug builds and replaced the result in release builds). Callbacks run
    /// on their contexts; immediate ones on this thread before it returns.
    ///
    /// - Parameters:
    ///   - result: The value or error.
    ///   - file: Where a second completion is reported; the caller's file if omitted.
    ///   - line: The line for that report; the caller's line if omitted.
    @inlinable
    public func complete(_ result: Try<T>, file: StaticString = #fileID, line: UInt = #line) {
        complete(result, reportingAt: file, line: line)
    }

    /// Completes the future with `value` (see `complete(_:file:line:)` for a second completion).
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - file: Where a second completion is reported; the caller's file if omitted.
    ///   - line: The line for that report; the caller's line if omitted.
    @inlinable
    public func success(_ value: T, file: StaticString = #fileID, line: UInt = #line) {
        complete(.success(value), reportingAt: file, line: line)
    }

    /// Fails the future with `error` (see `complete(_:file:line:)` for a second completion).
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - file: Where a second completion is reported; the caller's file if omitted.
    ///   - line: The line for that report; the caller's line if omitted.
    @inlinable
    public func failure(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
        complete(.failure(error), reportingAt: file, line: line)
    }

    // The one-parameter forms below exist for function values (`onSuccess(completion: future.success)`):
    // a method with defaulted trailing parameters does not convert to `(T) -> Void`. They are
    // disfavoured, so a call picks the form above and reports at its own line; a function value has no
    // call site of its own, so these report at the line that completes the future inside this module.

    /// `complete(_:file:line:)` as a one-parameter function value, for `onComplete(completion:)` and the
    /// like. A second completion through it is reported at this module's line, not the caller's.
    @_disfavoredOverload
    @inlinable
    public func complete(_ result: Try<T>) {
        complete(result, reportingAt: #fileID, line: #line)
    }

    /// `success(_:file:line:)` as a one-parameter function value (`onSuccess(completion: future.success)`).
    /// A second completion through it is reported at this module's line, not the caller's.
    @_disfavoredOverload
    @inlinable
    public func success(_ value: T) {
        complete(.success(value), reportingAt: #fileID, line: #line)
    }

    /// `failure(_:file:line:)` as a one-parameter function value (`onFailure(completion: future.failure)`).
    /// A second completion through it is reported at this module's line, not the caller's.
    @_disfavoredOverload
    @inlinable
    public func failure(_ error: any Error) {
        complete(.failure(error), reportingAt: #fileID, line: #line)
    }

    /// `complete(_:)`, reporting a second completion at `file`:`line` (the caller of an adapter).
    @inlinable
    func complete(_ result: Try<T>, reportingAt file: StaticString, line: UInt) {
        if !base.complete(result) {
            FuturesDiagnostics.report(.futureCompletedTwice(file: "\(file)", line: line))
        }
    }

    /// Completes this future with `future`'s result once it has one; the hand-over runs on `context`.
    ///
    /// This future becomes one consumer of `future` (the core's dependency primitive). If this future
    /// was completed meanwhile, the later result is ignored and reported as with `complete(_:file:line:)`,
    /// at `file`:`line`.
    ///
    /// - Parameters:
    ///   - context: Where the hand-over runs; `QueueContext.futuresDefault` if omitted.
    ///   - future: The future whose result this one takes.
    ///   - file: Where a losing hand-over is reported; the caller's file if omitted.
    ///   - line: The line for that report; the caller's line if omitted.
    @inlinable
    public func completeWith(
        context: ExecutionContext = QueueContext.futuresDefault,
        future: Future<T>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        let base = self.base
        if context.isImmediate, let result = future.base.ifCompleted({ $0 }) {
            complete(result, reportingAt: file, line: line)
            return
        }
        base.depend(upon: future.base, context) { result in
            Future(base).complete(result, reportingAt: file, line: line)
        }
    }

    /// Completes this future with the future in `future`, or fails it with the error it holds.
    ///
    /// - Parameters:
    ///   - context: Where the hand-over runs; `QueueContext.futuresDefault` if omitted.
    ///   - future: The future whose result this one takes, or the error to fail with.
    ///   - file: Where a losing completion is reported; the caller's file if omitted.
    ///   - line: The line for that report; the caller's line if omitted.
    @inlinable
    public func completeWith(
        context: ExecutionContext = QueueContext.futuresDefault,
        future: Try<Future<T>>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        switch future {
        case .success(let future): completeWith(context: context, future: future, file: file, line: line)
        case .failure(let error): complete(.failure(error), reportingAt: file, line: line)
        }
    }

    /// Completes this future with the first result `stream` delivers (its replay first); the hand-over
    /// runs on `context`. Later results of `stream` are ignored.
    public func completeWith(context: ExecutionContext = QueueContext.futuresDefault, stream: FutureStream<T>) {
        let base = self.base
        stream.base.onComplete(context: context) { result in
            base.complete(result)
        }
    }

    // MARK: - Callbacks

    /// Registers `body` on `context`, with `cancelToken` when there is one.
    @inlinable
    func register(
        _ context: ExecutionContext, _ cancelToken: CancelToken?, _ body: @escaping @Sendable (Try<T>) -> Void
    ) {
        if let cancelToken {
            base.onComplete(context: context, cancelToken: cancelToken, completion: body)
        } else {
            base.onComplete(context, callback: body)
        }
    }

    /// Registers `completion` to run with the result on `context`.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; `QueueContext.futuresDefault` if omitted. On a completed
    ///     future it runs at once (immediate context) or is handed to `context` at once.
    ///   - cancelToken: `cancel(cancelToken)` on this future unregisters `completion` (and releases it).
    ///   - completion: Receives the result, exactly once; released after it ran.
    @inlinable
    public func onComplete(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        completion: @escaping @Sendable (Try<T>) -> Void
    ) {
        register(context, cancelToken, completion)
    }

    /// Registers `completion` to run with the value on success, on `context`; never runs on failure.
    /// `cancel(cancelToken)` on this future unregisters it.
    @inlinable
    public func onSuccess(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        completion: @escaping @Sendable (T) -> Void
    ) {
        register(context, cancelToken) { result in
            if case .success(let value) = result { completion(value) }
        }
    }

    /// Registers `completion` to run with the error on failure, on `context`; never runs on success.
    /// `cancel(cancelToken)` on this future unregisters it.
    @inlinable
    public func onFailure(
        context: ExecutionContext = QueueContext.futuresDefault,
        cancelToken: CancelToken? = nil,
        completion: @escaping @Sendable (any Error) -> Void
    ) {
        register(context, cancelToken) { result in
            if case .failure(let error) = result { completion(error) }
        }
    }

    /// Unregisters every callback and combinator registered on this future with `cancelToken`: they
    /// never run, and what they captured is released at once. A cancelled combinator's future stays
    /// pending (as in SimpleFutures). The future's own result is never affected.
    ///
    /// - Returns: `true` if something registered with `cancelToken` on this future had not run yet.
    @inlinable
    @discardableResult
    public func cancel(_ cancelToken: CancelToken) -> Bool {
        base.cancel(cancelToken)
    }
}

/// The write end of a `Future`: SimpleFutures' `Promise`.
///
/// ```swift
/// let promise = Promise<Int>()
/// promise.future.onSuccess(context: ImmediateContext()) { value in
///     print(value)
/// }
/// promise.success(1)
/// ```
///
/// A promise dropped before it completed its future leaves the future pending (as in SimpleFutures).
public struct Promise<T: Sendable>: Sendable {
    /// The future this promise completes.
    public let future: Future<T>

    /// Creates a promise with a pending future.
    @inlinable
    public init() {
        self.future = Future<T>()
    }

    /// Whether the future has a result.
    @inlinable
    public var completed: Bool { future.completed }

    /// Completes the future with `result` (the first completion wins; a second one is reported at
    /// `file`:`line`, see `Future.complete(_:file:line:)`).
    ///
    /// - Parameters:
    ///   - result: The value or error.
    ///   - file: Where a second completion is reported; the caller's file if omitted.
    ///   - line: The line for that report; the caller's line if omitted.
    @inlinable
    public func complete(_ result: Try<T>, file: StaticString = #fileID, line: UInt = #line) {
        future.complete(result, reportingAt: file, line: line)
    }

    /// Completes the future with `value` (a second completion is reported at `file`:`line`).
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - file: Where a second completion is reported; the caller's file if omitted.
    ///   - line: The line for that report; the caller's line if omitted.
    @inlinable
    public func success(_ value: T, file: StaticString = #fileID, line: UInt = #line) {
        future.complete(.success(value), reportingAt: file, line: line)
    }

    /// Fails the future with `error` (a second completion is reported at `file`:`line`).
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - file: Where a second completion is reported; the caller's file if omitted.
    ///   - line: The line for that report; the caller's line if omitted.
    @inlinable
    public func failure(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
        future.complete(.failure(error), reportingAt: file, line: line)
    }

    // One-parameter forms for function values (`onSuccess(completion: promise.success)`), disfavoured
    // so that a call picks the form above; see the same forms on `Future`.

    /// `complete(_:file:line:)` as a one-parameter function value. A second completion through it is
    /// reported at this module's line, not the caller's.
    @_disfavoredOverload
    @inlinable
    public func complete(_ result: Try<T>) {
        future.complete(result, reportingAt: #fileID, line: #line)
    }

    /// `success(_:file:line:)` as a one-parameter function value (`onSuccess(completion: promise.success)`).
    /// A second completion through it is reported at this module's line, not the caller's.
    @_disfavoredOverload
    @inlinable
    public func success(_ value: T) {
        future.complete(.success(value), reportingAt: #fileID, line: #line)
    }

    /// `failure(_:file:line:)` as a one-parameter function value (`onFailure(completion: promise.failure)`).
    /// A second completion through it is reported at this module's line, not the caller's.
    @_disfavoredOverload
    @inlinable
    public func failure(_ error: any Error) {
        future.complete(.failure(error), reportingAt: #fileID, line: #line)
    }

    /// Completes the future with `future`'s result once it has one; the hand-over runs on `context`.
    /// A losing hand-over is reported at `file`:`line` (see `Future.completeWith(context:future:file:line:)`).
    ///
    /// - Parameters:
    ///   - context: Where the hand-over runs; `QueueContext.futuresDefault` if omitted.
    ///   - future: The future whose result this promise's future takes.
    ///   - file: Where a losing hand-over is reported; the caller's file if omitted.
    ///   - line: The line for that report; the caller's line if omitted.
    @inlinable
    public func completeWith(
        context: ExecutionContext = QueueContext.futuresDefault,
        future: Future<T>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.future.completeWith(context: context, future: future, file: file, line: line)
    }
}
