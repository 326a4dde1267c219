import Benchmark
import Futures

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Length of the W4 chains.
public let w4Depth = 1_000_000

/// Stack of the thread that runs W4: 1 MiB. A chain of 1,000,000 steps that used even 8 bytes of
/// stack per step would need 8 MB, so finishing here proves that the stack does not grow with depth.
public let w4StackBytes = 1 << 20

/// W4: 1,000,000 chained `flatMap`s on the immediate context, from a pending root (built, then the root
/// is completed and the whole chain runs) and from a completed root (every step runs as it is added).
public func registerFuturesW4() {
    let config = Config.batch([.peakMemoryResident], maxDuration: .seconds(6), maxIterations: 5, warmup: 0)

    Benchmark("W4.Futures", configuration: config) { benchmark in
        runOnThread(stackBytes: w4StackBytes) {
            let root = Promise<Int, Never>()
            var last = root.future
            for _ in 0..<w4Depth {
                last = last.flatMap(immediateExecutionContext) { Future<Int, Never>(value: $0 + 1) }
            }
            root.success(0)
            check(last.value == w4Depth, "W4.Futures wrong result")
        }
    }

    Benchmark("W4Completed.Futures", configuration: config) { benchmark in
        runOnThread(stackBytes: w4StackBytes) {
            var last = Future<Int, Never>(value: 0)
            for _ in 0..<w4Depth {
                last = last.flatMap(immediateExecutionContext) { Future<Int, Never>(value: $0 + 1) }
            }
            check(last.value == w4Depth, "W4Completed.Futures wrong result")
        }
    }
}

private final class ThreadBody {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Runs `body` on a new thread with a stack of `stackBytes`, and waits for it.
public func runOnThread(stackBytes: Int, _ body: @escaping () -> Void) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackBytes)
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
        var thread: pthread_t?
    #else
        var thread = pthread_t()
    #endif
    let status = pthread_create(
        &thread, &attributes,
        { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Darwin)
        pthread_join(thread!, nil)
    #else
        pthread_join(thread, nil)
    #endif
}
