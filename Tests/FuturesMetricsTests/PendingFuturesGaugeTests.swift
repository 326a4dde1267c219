#if Metrics
    import Clocks
    import Futures
    import FuturesMetrics
    import MetricsTestKit
    import Testing

    @Suite("PendingFuturesGauge", .hangGuard())
    struct PendingFuturesGaugeTests {
        // Tracking is process-wide and other tests run meanwhile: the test that turns it on runs in a child
        // process (`#expect(processExitsWith:)`) and checks with `precondition`.
        @Test func aSampleIsTheNumberOfTrackedPendingFutures() async {
            await #expect(processExitsWith: .success) {
                let metrics = TestMetrics()
                let gauge = PendingFuturesGauge(dimensions: [("service", "api")], factory: metrics)
                FuturesDiagnostics.tracksPendingFutures = true
                let first = Promise<Int, Never>()
                let mapped = first.future.map(immediateExecutionContext) { $0 + 1 }
                let second = Promise<Int, Never>()
                gauge.record()
                let recorded = try? metrics.expectGauge("futures_pending", [("service", "api")])
                precondition(recorded?.lastValue == 3, "\(String(describing: recorded?.values))")
                first.success(1)
                gauge.record()
                precondition(recorded?.lastValue == 1)
                withExtendedLifetime((mapped, second)) {}
            }
        }

        @Test func runSamplesNowAndEveryIntervalUntilCancelled() async throws {
            let metrics = TestMetrics()
            let clock = TestClock()
            let gauge = PendingFuturesGauge(factory: metrics)
            let sampling = Task { await gauge.run(every: .seconds(10), clock: clock) }
            func samples() -> [Double] { (try? metrics.expectGauge("futures_pending").values) ?? [] }
            // Each sample is awaited before the clock moves (yields, no sleeps); the deadlines are set from
            // the first sample's instant, so a sleep that starts after the clock moved past it returns at once.
            while samples().count < 1 { await Task.yield() }
            await clock.advance(by: .seconds(10) + .nanoseconds(1))
            while samples().count < 2 { await Task.yield() }
            await clock.advance(by: .seconds(10))
            while samples().count < 3 { await Task.yield() }
            sampling.cancel()
            await sampling.value
            #expect(samples().count == 3)  // at 0, 10 and 20 s
            #expect(samples().allSatisfy { $0 == 0 })  // tracking is off in this process
        }
    }
#endif
