import Dispatch
import Futures

private enum FetchError: Error { case offline }

private func fibonacci(_ n: Int) -> Int {
    var (a, b) = (0, 1)
    for _ in 0..<n { (a, b) = (b, a + b) }
    return a
}

private func fibonacciFuture(_ n: Int) -> Future<Int, Never> { Future(value: fibonacci(n)) }

/// Chapter: chaining and combining futures the BrightFutures way.
func tourBrightFuturesChaining() {
    print("\n== BrightFutures: chaining and combining ==")

    // Make every call that omits a context run right here, so the output order is deterministic.
    DefaultExecutionContext.withDefault(immediateExecutionContext) {
        fibonacciFuture(10)
            .map { $0 > 5 ? "large" : "small" }
            .onSuccess { print("map: fibonacci(10) is", $0) }

        fibonacciFuture(10)
            .flatMap { fibonacciFuture($0) }
            .onSuccess { print("flatMap: fibonacci(fibonacci(10)) =", $0) }

        Future<Int, Never>(value: 1).zip(Future(value: 2))
            .onSuccess { a, b in print("zip: a is \(a), b is \(b)") }

        Future<Int, Never>(value: 3).filter { $0 > 5 }
            .onFailure { print("filter 3 > 5: failed with", $0) }
        Future<String, Never>(value: "Swift").filter { $0.hasPrefix("Sw") }
            .onSuccess { print("filter \"Swift\" has prefix \"Sw\": kept", $0) }

        Future<Int, FetchError>(error: .offline)
            .recover { _ in 5 }
            .onSuccess { print("recover: offline, so the default", $0) }
        (Future<Int, FetchError>(error: .offline) ?? fibonacciFuture(7))
            .onSuccess { print("?? another future: fell back to", $0) }

        let fibonacciSequence = (1...10).map { fibonacciFuture($0) }
        fibonacciSequence.sequence().onSuccess { print("sequence:", $0) }
        fibonacciSequence.fold(immediateExecutionContext, zero: 0) { $0 + $1 }
            .onSuccess { print("fold: the first ten add up to", $0) }
    }

    // `traverse` and `delay` hop to a queue; `forced()` waits for them (fine in a demo, not on a UI thread).
    let traversed = (1...10).traverse { fibonacciFuture($0 * 2) }
    print("traverse: fibonacci of the even numbers:", traversed.forced())

    // Called on the main thread, `delay(_:)` completes on the main queue, which `forced()` here would
    // block: name a queue instead.
    let delayed = Future<String, Never>(value: "three").delay(DispatchQueue.global(), interval: .milliseconds(50))
    print("delay: completed right away?", delayed.isCompleted)
    print("delay: after 50 ms:", delayed.forced())
}
