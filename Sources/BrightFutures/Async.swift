import Dispatch
import Futures

/// BrightFutures' base type: a write-once value that arrives later and cannot fail.
///
/// Code written against BrightFutures' `Async<Value>` keeps working; new code uses `Future<Value, Never>`,
/// which is what an `Async` wraps (its `future`). This name is the class ``BrightFutures/BrightFutures/Async``,
/// which `BrightFutures.Async` also names.
public typealias Async<Value: Sendable> = BrightFutures.Async<Value>

extension BrightFutures {
    /// BrightFutures' base type: a write-once value that arrives later and cannot fail.
    ///
    /// Code written against BrightFutures' `Async<Value>` keeps working; new code uses
    /// `Future<Value, Never>`, which is what an `Async` wraps (``future``). Each callback runs once, on its
    /// context: callbacks on one serial queue (or on the immediate context, registered before completion)
    /// run in registration order; callbacks on different contexts may run at the same time.
    ///
    /// It is declared in the module's namespace enum so that both `Async` and `BrightFutures.Async` name
    /// it; write `Async`.
    public final class Async<Value: Sendable>: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
        /// The future this value is read from.
        public let future: Future<Value, Never>

        /// Creates a pending value that never completes by itself.
        @inlinable
        public init() {
            future = Future()
        }

        /// Creates a completed value.
        @inlinable
        public init(result: Value) {
            future = Future(value: result)
        }

        /// Creates a value that `resolver` completes by calling `complete` once, from any thread.
        ///
        /// `resolver` runs synchronously, on the calling thread; a second call of `complete` is ignored and
        /// reported as `FuturesDiagnostic.futureCompletedTwice(file:line:)`.
        @inlinable
        public init(
            file: StaticString = #fileID,
            line: UInt = #line,
            resolver: (_ complete: @escaping @Sendable (Value) -> Void) -> Void
        ) {
            future = Future(file: file, line: line) { complete in
                resolver { complete(.success($0)) }
            }
        }

        /// Creates a value that completes when `other` completes, with its value.
        @inlinable
        public init(other: Async<Value>) {
            future = other.future
        }

        /// Wraps `future`.
        @inlinable
        public init(_ future: Future<Value, Never>) {
            self.future = future
        }

        /// The value, or `nil` while pending.
        @inlinable
        public var result: Value? {
            future.value
        }

        /// `true` once the value has arrived.
        @inlinable
        public var isCompleted: Bool {
            future.isCompleted
        }

        /// Registers `callback` to run with the value on `context` (the core's `defaultContext()` if
        /// omitted).
        @inlinable
        @discardableResult
        public func onComplete(
            _ context: Futures.ExecutionContext = Futures.defaultContext(),
            callback: @escaping @Sendable (Value) -> Void
        ) -> Self {
            future.onSuccess(context, callback: callback)
            return self
        }

        /// Registers `callback` to run with the value on the context function `context`.
        @inlinable
        @discardableResult
        public func onComplete(
            _ context: @escaping ExecutionContext,
            callback: @escaping @Sendable (Value) -> Void
        ) -> Self {
            onComplete(Futures.ExecutionContext(context), callback: callback)
        }

        /// Waits, without blocking a thread, for the value. Never throws.
        @inlinable
        public func get() async -> Value {
            await future.get()
        }

        /// Blocks the calling thread until the value arrives (see `Future.forced()` for the deadlock rule).
        @inlinable
        public func forced() -> Value {
            switch future.forced() {
            case .success(let value): return value
            }
        }

        /// `Async<Int>(Optional(1))` once completed with 1, `Async<Int>(nil)` while pending (as BrightFutures).
        @inlinable
        public var description: String {
            "Async<\(Value.self)>(\(String(describing: result)))"
        }

        /// The same as ``description``.
        @inlinable
        public var debugDescription: String {
            description
        }
    }
}

extension BrightFutures.Async {
    /// Flattens an `Async` of an `Async`: completes with the inner value once both have arrived.
    ///
    /// Nothing runs on a context: the result completes on the thread that completes the inner value.
    @inlinable
    public func flatten<Inner>() -> Async<Inner> where Value == Async<Inner> {
        Async<Inner>(future.flatMap(Futures.immediateExecutionContext) { $0.future })
    }
}
