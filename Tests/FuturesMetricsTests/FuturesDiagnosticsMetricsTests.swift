#if Metrics
    import Futures
    import FuturesMetrics
    import MetricsTestKit
    import Synchronization
    import Testing

    private struct Boom: Error {}

    @Suite("FuturesDiagnostics metrics", .hangGuard())
    struct FuturesDiagnosticsMetricsTests {
        let metrics = TestMetrics()

        func count(_ kind: String) -> Int64 {
            metrics.counterTotal(label: "futures_diagnostics_total", dimensions: [("kind", kind), ("service", "api")])
        }

        @Test func eachDiagnosticIsCountedByKindAndPassedOn() {
            let forwarded = Mutex<[String]>([])
            let handler = FuturesDiagnostics.metrics(dimensions: [("service", "api")], factory: metrics) { diagnostic in
                forwarded.withLock { $0.append(diagnostic.kind) }
            }
            FuturesDiagnostics.withHandler(handler) {
                let promise = Promise<Int, Never>()
                promise.success(1)
                promise.success(2)  // promiseCompletedTwice
                _ = Promise<Int, Never>()  // promiseDropped (a Never future cannot fail)
                _ = Future<Int, Boom>(error: Boom())  // unobservedFailure
            }
            #expect(count("promiseCompletedTwice") == 1)
            #expect(count("promiseDropped") == 1)
            #expect(count("unobservedFailure") == 1)
            #expect(count("futureCompletedTwice") == 0)
            #expect(
                forwarded.withLock { $0 }.sorted() == ["promiseCompletedTwice", "promiseDropped", "unobservedFailure"])
        }

        @Test func countingOnlyForwardsNothing() {
            FuturesDiagnostics.withHandler(
                FuturesDiagnostics.metrics(dimensions: [("service", "api")], factory: metrics, forwardingTo: nil)
            ) {
                let promise = Promise<Int, Never>()
                promise.success(1)
                promise.success(2)
            }
            #expect(count("promiseCompletedTwice") == 1)
        }

        @Test func everyKindHasAStableName() {
            let kinds = [
                FuturesDiagnostic.promiseCompletedTwice(file: "f", line: 1),
                .futureCompletedTwice(file: "f", line: 1),
                .promiseDropped(type: "Promise<Int, Never>", file: "f", line: 1),
                .contextRanTaskTwice,
                .unobservedFailure(type: "Future<Int, Boom>", error: "Boom", file: nil, line: nil),
            ].map(\.kind)
            #expect(
                kinds == [
                    "promiseCompletedTwice", "futureCompletedTwice", "promiseDropped", "contextRanTaskTwice",
                    "unobservedFailure",
                ])
        }
    }
#endif
