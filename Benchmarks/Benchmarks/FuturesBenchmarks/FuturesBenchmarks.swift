import Benchmark
import FuturesWorkloads

// Workloads W1–W6 of issue 3, one group per workload, each run for every library side by side:
//   <Wn>.Futures      this package (registered by the FuturesWorkloads library)
//   <Wn>.NIO          SwiftNIO EventLoopFuture (EmbeddedEventLoop when single-threaded, else a
//                     MultiThreadedEventLoopGroup)
//   <Wn>.OpenCombine  OpenCombine Future + operators
//   <Wn>.AsyncAwait   plain Swift concurrency (Task, continuations), a floor
//   <Wn>.Closure      raw closures / Dispatch, the floor
//   <Wn>.Naive        the naive reference future (one Mutex, an array of closures; see NaiveFuture)
// See BENCHMARKS.md at the repository root for what each workload measures.
let benchmarks: @Sendable () -> Void = {
    registerFuturesW1()
    registerFuturesW1One()
    registerFuturesDiagnostics()
    registerCompetitorsW1()
    registerFuturesW2s()
    registerCompetitorsW2s()
    registerFuturesW1Task()
    registerFuturesW2sTask()
    registerBoltsSwiftFace()
    registerSimpleFuturesFace()
    registerBrightFuturesFace()
    registerFuturesW2()
    registerFuturesW2One()
    registerCompetitorsW2()
    registerFuturesW3a()
    registerCompetitorsW3a()
    registerFuturesW3b()
    registerCompetitorsW3b()
    registerFuturesW4()
    registerCompetitorsW4()
    registerFuturesW5()
    registerCompetitorsW5()
    registerFuturesW6()
    registerFuturesW7()
    registerCompetitorsW6()
    registerFuturesStreams()
    registerCompetitorsStreams()
    registerFuturesLimiter()
    registerFuturesConsent()
    registerCompetitorsOneStep()
    registerAllocationFloor()
    registerCompetitorsW7()
    registerNaiveReference()
}
