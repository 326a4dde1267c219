import Bolts
import Testing

@testable import Futures

private struct Boom: Error {}

/// BFTask continuations are steps derived through the core (`derive`), so a failure trace names each one
/// and where it was added.
@Suite("BFTask: failure traces name the continuations")
struct BFTaskFailureTraceTests {
    @Test func aFaultThroughContinuationsKeepsTheWholeTrace() {
        FuturesDiagnostics.withFailureTracing {
            let (source, s) = (BFTaskCompletionSource<Int>(), UInt(#line))
            let (passed, p) = (source.task.continueOnSuccessWith { $0.result! + 1 }, UInt(#line))
            let (chained, c) = (passed.continueWithTask { $0 }, UInt(#line))
            let (thrown, t) = (chained.continueWith { task -> Int in throw task.error! }, UInt(#line))
            source.set(error: Boom())
            let here = #fileID
            #expect(
                thrown.future.failureTrace?.steps == [
                    FailureTrace.Step(name: "Promise", file: here, line: s),
                    FailureTrace.Step(name: "continueOnSuccessWith", file: here, line: p),
                    FailureTrace.Step(name: "continueWithTask", file: here, line: c),
                    FailureTrace.Step(name: "continueWith", file: here, line: t),
                ])
        }
    }
}
