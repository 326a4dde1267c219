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
            let (thrown, t) = (passed.continueWith { task -> Int in throw task.error! }, UInt(#line))
            source.set(error: Boom())
            let here = #fileID
            #expect(
                thrown.future.failureTrace?.steps == [
                    FailureTrace.Step(name: "BFTaskCompletionSource", file: here, line: s),
                    FailureTrace.Step(name: "continueOnSuccessWith", file: here, line: p),
                    FailureTrace.Step(name: "continueWith", file: here, line: t),
                ])
        }
    }

    /// As the core's `flatMap`: the trace of the returned task's failure, then the step that chained it.
    @Test func aFaultOfAReturnedTaskContinuesItsTrace() {
        FuturesDiagnostics.withFailureTracing {
            let first = BFTaskCompletionSource<Int>()
            let (inner, i) = (BFTaskCompletionSource<Int>(), UInt(#line))
            let (chained, c) = (first.task.continueOnSuccessWithTask { _ in inner.task }, UInt(#line))
            let (last, l) = (chained.continueOnSuccessWith { $0.result! + 1 }, UInt(#line))
            first.set(result: 1)
            inner.set(error: Boom())
            let here = #fileID
            #expect(last.error is Boom)
            #expect(
                last.future.failureTrace?.steps == [
                    FailureTrace.Step(name: "BFTaskCompletionSource", file: here, line: i),
                    FailureTrace.Step(name: "continueOnSuccessWithTask", file: here, line: c),
                    FailureTrace.Step(name: "continueOnSuccessWith", file: here, line: l),
                ])
        }
    }
}
