import Benchmark
import Futures
import SimpleFutures

/// Consent: one shared source with a cancellation handler and three consumers — a `consumer()` handle and two
/// `map`s registered with a `CancelToken` (removable). One removable consumer asks, the token takes both
/// removable ones back (and the ask with them), the handle asks: the source is asked once, then fails.
/// Measures what the cell's cancellation bookkeeping costs per shared source: removable registrations, an ask
/// through a registration, a tally, two removals, the request and its handler.
public func registerFuturesConsent() {
    Benchmark("Consent.Futures", configuration: Config.kilo()) { benchmark in
        let asked = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let source = Futures.Promise<Int, any Error>()
            source.onCancellationRequested { asked.increment() }
            let token = CancelToken()
            let handle = source.future.consumer()
            // SimpleFutures' token-taking `map`, over the same cell (the face holds the core's future).
            let shared = SimpleFutures.Future(source.future)
            let asker = shared.map(context: immediateExecutionContext, cancelToken: token) { $0 + 1 }
            let other = shared.map(context: immediateExecutionContext, cancelToken: token) { $0 + 2 }
            asker.base.requestCancellation()
            shared.cancel(token)
            handle.requestCancellation()
            source.failure(FuturesError.cancelled)
            blackHole(other)
        }
        check(asked.current == benchmark.scaledIterations.count, "Consent.Futures: the source was not asked once")
    }
}
