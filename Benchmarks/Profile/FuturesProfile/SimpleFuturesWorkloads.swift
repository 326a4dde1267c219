// The streams and throwing-map workloads (Benchmarks/FuturesWorkloads/FuturesStreams.swift) in its own file: stream callbacks
// and combinators are SimpleFutures' spelling, and `import SimpleFutures` makes `Future` that module's in the
// file that imports it.
import SimpleFutures

/// Streams: one value at a time through `map` + `withFilter` to one subscriber, on the immediate context.
func simpleFuturesStreams(_ count: Int) {
    let promise = StreamPromise<Int>(capacity: 16)
    promise.stream
        .map(context: ImmediateContext()) { $0 + 1 }
        .withFilter(context: ImmediateContext()) { $0 % 2 == 0 }
        .onSuccess(context: ImmediateContext()) { consume($0) }
    for value in 0..<count { promise.success(value) }
}

/// ThrowingMap: SimpleFutures' throwing `map` on a completed untyped future, observed, on the immediate context.
func simpleFuturesThrowingMap(_ count: Int) {
    for _ in 0..<count {
        Future<Int>(value: 1)
            .map(context: ImmediateContext()) { (value: Int) throws -> Int in value + 1 }
            .onComplete(context: ImmediateContext()) { if case .success(let v) = $0 { consume(v) } }
    }
}
