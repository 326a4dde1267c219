#if Metrics
    import CoreMetrics
    import Futures
    import FuturesMetrics
    import Metrics
    import MetricsTestKit
    import Testing

    /// Each test records into its own `TestMetrics` (passed as the factory, or made current with
    /// `withMetricsFactory`), so the suites run in parallel without a process-wide bootstrap.
    @Suite("LimiterMetrics", .hangGuard())
    struct LimiterMetricsTests {
        let metrics = TestMetrics()
        let dimensions = [("limiter", "crawler"), ("region", "eu")]

        func meter(_ label: String) throws -> Double? {
            try metrics.expectMeter(label, dimensions).lastValue
        }

        @Test func runningAndQueuedMetersFollowTheItemsAndTimersRecordEachWaitAndRun() throws {
            let observer = LimiterMetrics(name: "crawler", dimensions: [("region", "eu")], factory: metrics)
            let limiter = ConcurrencyLimiter(maxConcurrent: 1, observer: observer)
            let first = Promise<Int, any Error>()
            let second = Promise<Int, any Error>()
            let third = Promise<Int, any Error>()
            _ = limiter.submit { first.future }
            _ = limiter.submit { second.future }
            _ = limiter.submit { third.future }
            #expect(try meter("futures_limiter_running") == 1)
            #expect(try meter("futures_limiter_queued") == 2)

            first.success(1)  // the second starts
            #expect(try meter("futures_limiter_running") == 1)
            #expect(try meter("futures_limiter_queued") == 1)
            second.success(2)
            third.success(3)
            #expect(try meter("futures_limiter_running") == 0)
            #expect(try meter("futures_limiter_queued") == 0)

            let waits = try metrics.expectTimer("futures_limiter_queue_wait", dimensions).values
            let runs = try metrics.expectTimer("futures_limiter_run_duration", dimensions).values
            #expect(waits.count == 3 && runs.count == 3)
            #expect(waits.first == 0)  // started at submission
            #expect(waits.dropFirst().allSatisfy { $0 > 0 })  // nanoseconds in the queue
            #expect(runs.allSatisfy { $0 >= 0 })
        }

        @Test func removedAndRefusedItemsAreCounted() throws {
            let limiter = ConcurrencyLimiter(
                maxConcurrent: 1,
                observer: LimiterMetrics(
                    name: "crawler", dimensions: [("region", "eu")],
                    factory: metrics))
            let running = Promise<Int, any Error>()
            _ = limiter.submit { running.future }
            let waiting = limiter.submit { Future<Int, any Error>(value: 1) }
            _ = limiter.submit { Future<Int, any Error>(value: 2) }
            waiting.requestCancellation()  // removed from its queue
            #expect(try metrics.expectCounter("futures_limiter_removed_total", dimensions).totalValue == 1)
            #expect(try meter("futures_limiter_queued") == 1)

            limiter.close()  // the other waiting item is removed; the running one is asked
            _ = limiter.submit { Future<Int, any Error>(value: 3) }  // refused
            #expect(try metrics.expectCounter("futures_limiter_removed_total", dimensions).totalValue == 2)
            #expect(try metrics.expectCounter("futures_limiter_refused_total", dimensions).totalValue == 1)
            #expect(try meter("futures_limiter_queued") == 0)
            #expect(try meter("futures_limiter_running") == 1)
            running.success(0)
            #expect(try meter("futures_limiter_running") == 0)
        }

        @Test("The default factory is MetricsSystem.factory: here the task-local one")
        func theDefaultFactoryIsTheCurrentOne() throws {
            let observer = withMetricsFactory(metrics) { LimiterMetrics(name: "crawler") }
            let limiter = ConcurrencyLimiter(maxConcurrent: 2, observer: observer)
            _ = limiter.submit { Future<Int, Never>(value: 1) }
            #expect(try metrics.expectTimer("futures_limiter_run_duration", [("limiter", "crawler")]).values.count == 1)
        }

        @Test("Without an observer nothing is measured")
        func noObserverNoMetrics() {
            let limiter = ConcurrencyLimiter(maxConcurrent: 1)
            _ = limiter.submit { Future<Int, Never>(value: 1) }
            #expect(metrics.meters.isEmpty && metrics.timers.isEmpty)
        }
    }
#endif
