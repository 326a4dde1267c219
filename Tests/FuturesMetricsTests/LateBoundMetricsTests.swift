#if Metrics
    import CoreMetrics
    import Futures
    import Metrics
    import MetricsTestKit
    import Testing

    @testable import FuturesMetrics

    /// Metrics made while swift-metrics has no backend (before `MetricsSystem.bootstrap`) bind to the
    /// backend at their first use after it appears, carrying what happened before. This process never
    /// bootstraps (other suites run in it): a backend appears here as the task-local factory of
    /// `withMetricsFactory` around the first use, and once for real, with `MetricsSystem.bootstrap`, in a
    /// child process.
    @Suite("Metrics made before the bootstrap", .hangGuard())
    struct LateBoundMetricsTests {
        let metrics = TestMetrics()
        let dimensions = [("limiter", "early")]

        @Test("A limiter's metrics made with no backend start from what happened before one appears")
        func limiterMetricsCarryTheirStateToTheBackend() throws {
            let limiter = ConcurrencyLimiter(maxConcurrent: 1, observer: LimiterMetrics(name: "early"))
            let blocker = Promise<Int, any Error>()
            let waiting = Promise<Int, any Error>()
            _ = limiter.submit { blocker.future }  // running
            _ = limiter.submit { waiting.future }  // queued
            limiter.submit { Future<Int, any Error>(value: 1) }.requestCancellation()  // removed unrun
            #expect(metrics.meters.isEmpty && metrics.counters.isEmpty && metrics.timers.isEmpty)

            // The first event with a backend: the blocker finishes (its run is timed), the waiting item starts.
            withMetricsFactory(metrics) { blocker.success(0) }
            #expect(try metrics.expectMeter("futures_limiter_running", dimensions).lastValue == 1)
            #expect(try metrics.expectMeter("futures_limiter_queued", dimensions).lastValue == 0)
            #expect(try metrics.expectCounter("futures_limiter_removed_total", dimensions).totalValue == 1)
            #expect(try metrics.expectTimer("futures_limiter_run_duration", dimensions).values.count == 1)
            #expect(try metrics.expectTimer("futures_limiter_queue_wait", dimensions).values.count == 1)

            // Bound now, whatever the thread's factory: later events are recorded on the same metrics.
            limiter.close()
            _ = limiter.submit { Future<Int, any Error>(value: 2) }  // refused
            waiting.success(0)
            #expect(try metrics.expectCounter("futures_limiter_refused_total", dimensions).totalValue == 1)
            #expect(try metrics.expectMeter("futures_limiter_running", dimensions).lastValue == 0)
        }

        @Test("Refusals before the backend are counted on it")
        func refusalsBeforeTheBackendAreCounted() throws {
            let limiter = ConcurrencyLimiter(maxConcurrent: 1, observer: LimiterMetrics(name: "early"))
            limiter.close()
            _ = limiter.submit { Future<Int, Never>(value: 1) }
            _ = limiter.submit { Future<Int, Never>(value: 2) }
            withMetricsFactory(metrics) { _ = limiter.submit { Future<Int, Never>(value: 3) } }
            #expect(try metrics.expectCounter("futures_limiter_refused_total", dimensions).totalValue == 3)
            #expect(metrics.meters.allSatisfy { $0.values.isEmpty })  // made, never moved
        }

        @Test("A factory passed explicitly is used at once, even the no-op one")
        func anExplicitFactoryBindsAtOnce() {
            let observer = LimiterMetrics(name: "early", factory: NOOPMetricsHandler.instance)
            let limiter = ConcurrencyLimiter(maxConcurrent: 1, observer: observer)
            withMetricsFactory(metrics) { _ = limiter.submit { Future<Int, Never>(value: 1) } }
            #expect(metrics.timers.isEmpty && metrics.meters.isEmpty)
        }

        @Test("The pending-futures gauge and the diagnostics counter bind at their first use with a backend")
        func gaugeAndDiagnosticsBindLate() throws {
            let gauge = PendingFuturesGauge(dimensions: [("service", "early")])
            gauge.record()  // no backend: dropped
            withMetricsFactory(metrics) { gauge.record() }
            #expect(try metrics.expectGauge("futures_pending", [("service", "early")]).values == [0])

            let handler = FuturesDiagnostics.metrics(dimensions: [("service", "early")], forwardingTo: nil)
            let twice = { () -> Void in
                let promise = Promise<Int, Never>()
                promise.success(1)
                promise.success(2)  // promiseCompletedTwice
            }
            FuturesDiagnostics.withHandler(handler, operation: twice)  // no backend: not counted
            withMetricsFactory(metrics) { FuturesDiagnostics.withHandler(handler, operation: twice) }
            FuturesDiagnostics.withHandler(handler, operation: twice)  // bound: counted
            let counted = try metrics.expectCounter(
                "futures_diagnostics_total", [("kind", "promiseCompletedTwice"), ("service", "early")])
            #expect(counted.totalValue == 2)
        }

        @Test("Made before MetricsSystem.bootstrap, a limiter's metrics go to the bootstrapped backend")
        func realBootstrap() async {
            await #expect(processExitsWith: .success) {
                let limiter = ConcurrencyLimiter(maxConcurrent: 1, observer: LimiterMetrics(name: "static"))
                let blocker = Promise<Int, Never>()
                let waiting = Promise<Int, Never>()
                _ = limiter.submit { blocker.future }
                _ = limiter.submit { waiting.future }
                let backend = TestMetrics()
                MetricsSystem.bootstrap(backend)
                blocker.success(0)
                let dimensions = [("limiter", "static")]
                let running = try? backend.expectMeter("futures_limiter_running", dimensions)
                let queued = try? backend.expectMeter("futures_limiter_queued", dimensions)
                precondition(running?.lastValue == 1, "running: \(String(describing: running?.values))")
                precondition(queued?.lastValue == 0, "queued: \(String(describing: queued?.values))")
                waiting.success(0)
                precondition(running?.lastValue == 0)
            }
        }
    }
#endif
