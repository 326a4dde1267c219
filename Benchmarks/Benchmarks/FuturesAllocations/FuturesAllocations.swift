import Benchmark
import FuturesWorkloads

// The Futures workloads only, without the competitors: a light target (no SwiftNIO or OpenCombine to
// build) for the allocation gate `scripts/check-benchmark-thresholds.sh`, whose thresholds live in
// `Benchmarks/Thresholds/`.
let benchmarks: @Sendable () -> Void = {
    Config.allocationGate = true
    registerFuturesW1()
    registerFuturesW1One()
    registerFuturesW2s()
    registerFuturesW1Task()
    registerFuturesW2sTask()
    registerFuturesW2()
    registerFuturesW2One()
    registerFuturesW3a()
    registerFuturesW3b()
    registerFuturesW4()
    registerFuturesW5()
    registerFuturesW6()
    registerFuturesW7()
    registerFuturesStreams()
    registerFuturesLimiter()
    registerFuturesConsent()
}
