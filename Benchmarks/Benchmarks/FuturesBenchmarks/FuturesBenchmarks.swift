import Benchmark

// Workloads W1–W6 of issue 3, one group per workload, each run for every library side by side:
//   <Wn>.Futures      this package
//   <Wn>.NIO          SwiftNIO EventLoopFuture (EmbeddedEventLoop when single-threaded, else a
//                     MultiThreadedEventLoopGroup)
//   <Wn>.OpenCombine  OpenCombine Future + operators
//   <Wn>.AsyncAwait   plain Swift concurrency (Task, continuations), a floor
//   <Wn>.Closure      raw closures / Dispatch, the floor
// See BENCHMARKS.md at the repository root for what each workload measures.
let benchmarks: @Sendable () -> Void = {
    registerW1()
    registerW2s()
    registerW2()
    registerW3a()
    registerW3b()
    registerW4()
    registerW5()
    registerW6()
}
