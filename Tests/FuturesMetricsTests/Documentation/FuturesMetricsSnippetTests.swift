#if Metrics
    import Clocks
    import CoreMetrics
    import Futures
    import FuturesMetrics
    import MetricsTestKit
    import Testing

    // The code of the FuturesMetrics catalog and of its types' comments, verbatim:
    // scripts/check-doc-snippets.sh fails when they drift apart.
    @Suite("Docs: FuturesMetrics", .hangGuard())
    struct FuturesMetricsSnippetTests {
        let metrics = TestMetrics()

        @Test func aLimiterWithItsMetrics() throws {
            let limiter = ConcurrencyLimiter(
                maxConcurrent: 8,
                observer: LimiterMetrics(
                    name: "crawler", dimensions: [("region", "eu")],
                    factory: metrics))
            _ = limiter.submit { Future<Int, Never>(value: 1) }
            let runs = try metrics.expectTimer(
                "futures_limiter_run_duration", [("limiter", "crawler"), ("region", "eu")])
            #expect(runs.values.count == 1)
        }

        @Test func theCommentsLimiterRecordsIntoTheDefaultFactory() throws {
            let made = withMetricsFactory(metrics) { () -> ConcurrencyLimiter in
                let limiter = ConcurrencyLimiter(maxConcurrent: 8, observer: LimiterMetrics(name: "crawler"))
                return limiter
            }
            _ = made.submit { Future<Int, Never>(value: 1) }
            #expect(try metrics.expectMeter("futures_limiter_running", [("limiter", "crawler")]).lastValue == 0)
        }

        // Both replace process-wide settings: they run in a child process, and check with `precondition`.
        @Test func countingTheProcesssDiagnostics() async {
            await #expect(processExitsWith: .success) {
                let metrics = TestMetrics()
                withMetricsFactory(metrics) {
                    FuturesDiagnostics.countInMetrics()
                }
                let promise = Promise<Int, Never>()
                promise.success(1)
                promise.success(2)
                let counted = metrics.counterTotal(
                    label: "futures_diagnostics_total", dimensions: [("kind", "promiseCompletedTwice")])
                precondition(counted == 1, "counted \(counted)")
            }
        }

        @Test func samplingThePendingFutures() async {
            await #expect(processExitsWith: .success) {
                let metrics = TestMetrics()
                let clock = TestClock()
                FuturesDiagnostics.tracksPendingFutures = true
                let gauge = PendingFuturesGauge(factory: metrics)
                let sampling = Task { await gauge.run(every: .seconds(10), clock: clock) }
                func samples() -> [Double] { (try? metrics.expectGauge("futures_pending").values) ?? [] }
                while samples().isEmpty { await Task.yield() }
                let waiting = Promise<Int, Never>()
                await clock.advance(by: .seconds(10) + .nanoseconds(1))
                while samples().count < 2 { await Task.yield() }
                sampling.cancel()
                await sampling.value
                precondition(samples() == [0, 1], "\(samples())")
                withExtendedLifetime(waiting) {}
            }
        }

        @Test func theCommentsGauge() async throws {
            let sampled = await withMetricsFactory(metrics) { () async -> Bool in
                let gauge = PendingFuturesGauge()
                let sampling = Task { await gauge.run(every: .seconds(10)) }  // until cancelled
                while (try? metrics.expectGauge("futures_pending").values.isEmpty) ?? true { await Task.yield() }
                sampling.cancel()
                await sampling.value
                return true
            }
            #expect(sampled)
        }
    }
#endif
