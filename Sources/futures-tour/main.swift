import Futures

// A guided tour of swift-futures. Each chapter lives in its own file and prints what it does.
print("swift-futures tour")
print("==================")
tourBrightFuturesChaining()
tourBrightFuturesContexts()
await tourSimpleFutures()
tourBolts()
tourCancellation()
await tourDeferred()
await tourTime()
await tourCombinators()
await tourLimiter()
print("\nEnd of the tour. Run `swift test` for the whole test suite.")
