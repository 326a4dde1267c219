import Clocks
import Foundation
import Testing

@testable import Futures

private let here = "\(#fileID)"

private enum Boom: Error {
    case boom
}

/// The failure trace through the steps that take their result from another future by the one dependency
/// primitive: `timeout` (a step of its own) and `consumer()`.
@Suite("Failure traces through timeout and consumer handles")
struct DependencyTraceTests {
    @Test(.hangGuard())
    func aTimedOutFutureNamesTheTimeoutStep() async {
        let clock = TestClock()
        let (limited, line) = FuturesDiagnostics.withFailureTracing {
            let promise = Promise<Int, any Error>()
            let limited = promise.future.timeout(after: .seconds(1), clock: clock)
            return (limited, UInt(#line) - 1)
        }
        await clock.advance(by: .seconds(1))
        _ = try? await limited.get()
        let trace = limited.failureTrace
        #expect(trace?.steps.last == FailureTrace.Step(name: "timeout", file: here, line: line))
    }

    @Test func aFailureThroughATimeoutKeepsTheWholeTrace() {
        FuturesDiagnostics.withFailureTracing {
            let (promise, p) = (Promise<Int, any Error>(), UInt(#line))
            let (limited, t) = (promise.future.timeout(after: .seconds(3600)), UInt(#line))
            promise.failure(Boom.boom)
            #expect(
                limited.failureTrace?.steps == [
                    FailureTrace.Step(name: "Promise", file: here, line: p),
                    FailureTrace.Step(name: "timeout", file: here, line: t),
                ])
        }
    }

    @Test func aConsumerHandleContinuesTheTrace() {
        FuturesDiagnostics.withFailureTracing {
            let (promise, p) = (Promise<Int, any Error>(), UInt(#line))
            let (mine, c) = (promise.future.consumer(), UInt(#line))
            promise.failure(Boom.boom)
            #expect(
                mine.failureTrace?.steps == [
                    FailureTrace.Step(name: "Promise", file: here, line: p),
                    FailureTrace.Step(name: "consumer", file: here, line: c),
                ])
        }
    }

    /// A trace is side data but not progress: gathering traced inputs makes no progress aggregate (which
    /// would cost a part per input and a sum over every part at each completion).
    @Test func gatheringTracedInputsMakesNoProgressAggregate() {
        FuturesDiagnostics.withFailureTracing {
            let promises = (0..<3).map { _ in Promise<Int, any Error>() }
            let all = promises.map(\.future).sequence()
            #expect(ProgressLink.tracker(of: all) == nil)
            for promise in promises { promise.success(1) }
            #expect(all.value == [1, 1, 1])
        }
    }
}
