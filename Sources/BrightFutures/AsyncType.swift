import Dispatch
import Foundation

/// BrightFutures' protocol of values that arrive later: `Futures.Future` and ``Async`` conform.
///
/// Write generic code against it as with BrightFutures, most often
/// `extension AsyncType where Value: ResultProtocol { … }`: such an extension applies to every
/// `Future`. Inside it, `Self { complete in … }` creates a new value of the same type, and the
/// combinators of these extensions (`map`, `flatMap`, `onSuccess`, `recover`, …) forward to the core's;
/// on a concrete `Future` the core's own methods are chosen (these are disfavoured overloads).
///
/// `Value` is `Sendable`, and `complete` and every callback are `@Sendable`: they cross threads.
public protocol AsyncType {
    /// The type of the value that arrives (`Result<T, E>` for a `Future<T, E>`).
    associatedtype Value: Sendable

    /// The value, or `nil` while pending.
    var result: Value? { get }

    /// Creates a pending value and lets `resolver` complete it: `resolver` runs synchronously, on the
    /// calling thread; `complete` may be called from any thread, the first call wins.
    init(resolver: (_ result: @escaping @Sendable (Value) -> Void) -> Void)

    /// Registers `callback` to run once with the value, on `context`.
    @discardableResult
    func onComplete(_ context: @escaping ExecutionContext, callback: @escaping @Sendable (Value) -> Void) -> Self
}

extension Future: AsyncType {}

extension Async: AsyncType {
    /// Creates a value that `resolver` completes: `Async.init(file:line:resolver:)` without the
    /// call-site parameters (the `AsyncType` requirement).
    @_disfavoredOverload
    public convenience init(resolver: (_ result: @escaping @Sendable (Value) -> Void) -> Void) {
        self.init(file: #fileID, line: #line, resolver: resolver)
    }
}

extension AsyncType {
    /// This value as a core future that never fails; the future itself for an `Async`. Nothing runs on a
    /// context: it completes on the thread that completes this value.
    var asyncFuture: Future<Value, Never> {
        if let async = self as? Async<Value> { return async.future }
        return Future { complete in
            onComplete(immediateExecutionContext) { complete(.success($0)) }
        }
    }

    /// Creates a pending value that never completes by itself.
    @_disfavoredOverload
    public init() {
        self.init { _ in }
    }

    /// Creates a completed value.
    @_disfavoredOverload
    public init(result: Value) {
        self.init { complete in complete(result) }
    }

    /// Creates a value that completes with `result` on a global queue, `delay` from now (the core's
    /// `Future.init(result:delay:)`).
    @_disfavoredOverload
    public init(result: Value, delay: DispatchTimeInterval) {
        let delayed = Future<Value, Never>(result: .success(result), delay: delay)
        self.init { complete in delayed.onSuccess(Futures.immediateExecutionContext, callback: complete) }
    }

    /// Creates a value that completes with `other`'s value, on the thread that completes `other`.
    ///
    /// When both are core futures this is the core's `Future(other:file:line:)`: the value is one consumer
    /// of `other` (a cancellation request on it is passed on as that consumer's ask) and a step named
    /// `Future` at the caller's `file` and `line` in failure traces and the pending-futures report.
    ///
    /// - Parameters:
    ///   - other: The value whose value this one takes.
    ///   - file: The caller's file, where the step is recorded (leave the default).
    ///   - line: The caller's line, where the step is recorded (leave the default).
    @_disfavoredOverload
    public init<A: AsyncType>(other: A, file: StaticString = #fileID, line: UInt = #line) where A.Value == Value {
        if let linking = other as? any AsyncTypeLinking,
            let follower = linking.linkedFollower(expecting: Self.self, file: file, line: line) as? Self
        {
            self = follower
            return
        }
        self.init { complete in other.onComplete(immediateExecutionContext, callback: complete) }
    }

    /// `true` once the value has arrived.
    @_disfavoredOverload
    public var isCompleted: Bool {
        result != nil
    }

    /// Blocks the calling thread until the value arrives (see `Future.forced()` for the rules).
    @_disfavoredOverload
    public func forced() -> Value {
        switch asyncFuture.forced() {
        case .success(let value): return value
        }
    }

    /// Blocks the calling thread until the value arrives or `timeout` passes (then `nil`); see
    /// `Future.forced(_:)`.
    @_disfavoredOverload
    public func forced(_ timeout: DispatchTime) -> Value? {
        switch asyncFuture.forced(timeout) {
        case .success(let value): return value
        case nil: return nil
        }
    }

    /// A value that arrives `interval` after this one, on the main queue when called on the main thread,
    /// else on a global queue (the core's `Future.delay(_:file:line:)` on a core `Future`, which names this
    /// step at the caller's `file` and `line`).
    @_disfavoredOverload
    public func delay(_ interval: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line) -> Self {
        if let linking = self as? any AsyncTypeLinking,
            let delayed = linking.linkedDelay(
                expecting: Self.self, nil, interval, file: file, line: line) as? Self
        {
            return delayed
        }
        let delayed = asyncFuture.delay(interval)
        return Self { complete in delayed.onSuccess(Futures.immediateExecutionContext, callback: complete) }
    }

    /// A value that arrives on `queue`, `interval` after this one (the core's
    /// `Future.delay(_:interval:file:line:)` on a core `Future`, which names this step at the caller's
    /// `file` and `line`).
    @_disfavoredOverload
    public func delay(
        _ queue: DispatchQueue, interval: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line
    ) -> Self {
        if let linking = self as? any AsyncTypeLinking,
            let delayed = linking.linkedDelay(
                expecting: Self.self, queue, interval, file: file, line: line) as? Self
        {
            return delayed
        }
        let delayed = asyncFuture.delay(queue, interval: interval)
        return Self { complete in delayed.onSuccess(Futures.immediateExecutionContext, callback: complete) }
    }

    /// Runs `callback` with the value on `c`, then completes the returned value with it.
    ///
    /// The returned value completes after `callback` has returned, on `c`. On a core `Future` this is the
    /// core's `andThen(context:callback:file:line:)`: a cancellation request travels upstream as in the
    /// core, and a failure trace names this step at the caller's `file` and `line`.
    @_disfavoredOverload
    public func andThen(
        context c: @escaping ExecutionContext = defaultContext(),
        callback: @escaping @Sendable (Value) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Self {
        if let linking = self as? any AsyncTypeLinking,
            // A core future's value is the `Result` its `andThen` passes on.
            let linked = linking.linkedAndThen(
                expecting: Self.self,
                c, { if let value = $0 as? Value { callback(value) } }, file: file, line: line) as? Self
        {
            return linked
        }
        return Self { complete in
            onComplete(c) { value in
                callback(value)
                complete(value)
            }
        }
    }

    /// Logs the completion through `logger` on `c`, then completes the returned value with this one's
    /// (the core's `Future.debug(_:logger:file:line:function:context:fileID:)`).
    ///
    /// On a core `Future` the returned one is an `andThen` step at the caller's `fileID` and `line`.
    ///
    /// - Parameters:
    ///   - identifier: Names the value in the message; `nil` names it by `file`, `line` and `function`.
    ///   - logger: Builds and writes the message; BrightFutures' ``Logger`` if omitted.
    ///   - file: The caller's file path, for the message (leave the default).
    ///   - line: The caller's line, for the message and the step (leave the default).
    ///   - function: The caller's function, for the message (leave the default).
    ///   - c: Where the message is logged; ``defaultContext()`` if omitted.
    ///   - fileID: The caller's file, where the step is recorded (leave the default).
    /// - Returns: A value with this one's, completed after the message is logged.
    @_disfavoredOverload
    public func debug(
        _ identifier: String? = nil,
        logger: any LoggerType = Logger(),
        file: String = #file,
        line: UInt = #line,
        function: String = #function,
        context c: @escaping ExecutionContext = defaultContext(),
        fileID: StaticString = #fileID
    ) -> Self {
        andThen(
            context: c,
            callback: { value in
                logger.log(
                    message: logger.message(for: value, with: identifier, file: file, line: line, function: function))
            },
            file: fileID,
            line: line)
    }
}

extension AsyncType where Value: AsyncType {
    /// The inner value, once both have arrived; nothing runs on a context.
    @_disfavoredOverload
    public func flatten() -> Value {
        let outer = asyncFuture
        return Value { complete in
            outer.onSuccess(Futures.immediateExecutionContext) { inner in
                inner.onComplete(immediateExecutionContext, callback: complete)
            }
        }
    }
}
