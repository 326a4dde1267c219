import Futures

print("swift-futures tour")
let promise = Promise<Int, Never>()
let doubled = promise.future.map(immediateExecutionContext) { $0 * 2 }
promise.success(21)
print("21 doubled:", doubled.forced())
tourBrightFuturesChaining()
tourBrightFuturesContexts()
await tourSimpleFutures()
await tourDeferred()
await tourTime()
await tourCombinators()
