import Benchmark
import Futures
import FuturesWorkloads
import NIOCore
import NIOEmbedded

/// W4: 1,000,000 chained `flatMap`s on the immediate context, from a pending root (built, then the root
/// is completed and the whole chain runs) and from a completed root (every step runs as it is added).
func registerCompetitorsW4() {
    let config = Config.batch([.peakMemoryResident], maxDuration: .seconds(6), maxIterations: 5, warmup: 0)

    Benchmark("W4.NIO", configuration: config) { benchmark in
        runOnThread(stackBytes: w4StackBytes) {
            let loop = EmbeddedEventLoop()
            let root = loop.makePromise(of: Int.self)
            var last = root.futureResult
            for _ in 0..<w4Depth {
                last = last.flatMap { loop.makeSucceededFuture($0 + 1) }
            }
            root.succeed(0)
            check((try? last.wait()) == w4Depth, "W4.NIO wrong result")
            try? loop.syncShutdownGracefully()
        }
    }

    Benchmark("W4Completed.NIO", configuration: config) { benchmark in
        runOnThread(stackBytes: w4StackBytes) {
            let loop = EmbeddedEventLoop()
            var last = loop.makeSucceededFuture(0)
            for _ in 0..<w4Depth {
                last = last.flatMap { loop.makeSucceededFuture($0 + 1) }
            }
            check((try? last.wait()) == w4Depth, "W4Completed.NIO wrong result")
            try? loop.syncShutdownGracefully()
        }
    }

    // Floor for async/await: 1,000,000 sequential awaits of an async function (on the benchmark's task).
    Benchmark("W4.AsyncAwait", configuration: config) { benchmark in
        var value = 0
        for _ in 0..<w4Depth { value = await asyncIncrement(value) }
        check(value == w4Depth, "W4.AsyncAwait wrong result")
    }
}

@inline(never)
func asyncIncrement(_ value: Int) async -> Int {
    identity(value) + 1
}
