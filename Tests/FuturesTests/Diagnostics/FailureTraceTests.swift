import Foundation
import Testing

@testable import Futures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private enum Boom: Error {
    case boom
}

private let here = "\(#fileID)"
private let now = immediateExecutionContext

private func step(_ name: String, _ line: UInt) -> FailureTrace.Step {
    FailureTrace.Step(name: name, file: here, line: line)
}

/// Collects log lines.
private final class LineLogger: LoggerType {
    let lines = Recorder<String>()
    func log(message: String) { lines.append(message) }
}

@Suite("Failure traces: which step failed")
struct FailureTraceTests {
    @Test func aTraceGoesThroughMapFlatMapAndARethrowingRecover() {
        FuturesDiagnostics.withFailureTracing {
            let (promise, p) = (Promise<Int, any Error>(), UInt(#line))
            let (mapped, m) = (promise.future.map(now) { $0 + 1 }, UInt(#line))
            let (chained, f) = (mapped.flatMap(now) { Future<Int, any Error>(value: $0) }, UInt(#line))
            let (recovered, r) = (chained.recover(context: now) { error throws -> Int in throw error }, UInt(#line))
            promise.failure(Boom.boom)
            let trace = recovered.failureTrace
            #expect(trace?.steps == [step("Promise", p), step("map", m), step("flatMap", f), step("recover", r)])
            #expect(trace?.isComplete == true)
            #expect(
                trace?.description
                    == "Promise at \(here):\(p) → map at \(here):\(m) → flatMap at \(here):\(f) → recover at \(here):\(r)"
            )
            // Each future along the way has the part of the trace that reaches it.
            #expect(mapped.failureTrace?.steps == [step("Promise", p), step("map", m)])
        }
    }

    @Test func aStepThatFailsByItselfStartsTheTraceAfterTheInnerFuturesSteps() {
        FuturesDiagnostics.withFailureTracing {
            let promise = Promise<Int, Boom>()
            let inner = Promise<Int, Boom>()
            let i = UInt(#line - 1)
            let (innerMapped, im) = (inner.future.map(now) { $0 }, UInt(#line))
            let doubled = promise.future.map(now) { $0 * 2 }
            let (chained, f) = (doubled.flatMap(now) { _ in innerMapped }, UInt(#line))
            let (last, l) = (chained.map(now) { $0 + 1 }, UInt(#line))
            promise.success(1)
            inner.failure(.boom)
            #expect(last.error == .boom)
            #expect(
                last.failureTrace?.steps == [step("Promise", i), step("map", im), step("flatMap", f), step("map", l)])
            #expect(doubled.failureTrace == nil)  // it succeeded
        }
    }

    @Test func sequenceAndTraverseContinueTheTraceOfTheFirstInputToFail() {
        FuturesDiagnostics.withFailureTracing {
            let first = Promise<Int, Boom>()
            let (second, s) = (Promise<Int, Boom>(), UInt(#line))
            let (mapped, m) = (second.future.map(now) { $0 }, UInt(#line))
            let (all, q) = ([first.future, mapped].sequence(), UInt(#line))
            let (counted, c) = (all.map(now) { $0.count }, UInt(#line))
            second.failure(.boom)
            first.failure(.boom)  // later: does not change the trace
            #expect(
                counted.failureTrace?.steps == [
                    step("Promise", s), step("map", m), step("sequence", q), step("map", c),
                ])
            let (inner, i) = (Promise<Int, Boom>(), UInt(#line))
            let (traversed, t) = ([1, 2].traverse(now) { $0 == 2 ? inner.future : Future(value: $0) }, UInt(#line))
            inner.failure(.boom)
            #expect(traversed.failureTrace?.steps == [step("Promise", i), step("traverse", t)])
        }
    }

    @Test func zipContinuesTheTraceOfTheSideThatFailed() {
        FuturesDiagnostics.withFailureTracing {
            let left = Promise<Int, Boom>()
            let (right, r) = (Promise<String, Boom>(), UInt(#line))
            let (pair, z) = (left.future.zip(right.future), UInt(#line))
            right.failure(.boom)
            left.success(1)  // zip fails with the other side's error once the receiver succeeded
            #expect(pair.error == .boom)
            #expect(pair.failureTrace?.steps == [step("Promise", r), step("zip", z)])
        }
    }

    @Test func aClosureThatThrowsIsWhereTheTraceStarts() {
        FuturesDiagnostics.withFailureTracing {
            let promise = Promise<Int, any Error>()
            let (thrown, t) = (promise.future.map(context: now) { _ throws -> Int in throw Boom.boom }, UInt(#line))
            let (mapped, m) = (thrown.mapError(now) { $0 }, UInt(#line))
            promise.success(1)
            #expect(mapped.failureTrace?.steps == [step("map", t), step("mapError", m)])
        }
    }

    @Test func aFailureFromAnUntracedFutureMakesAnIncompleteTrace() {
        let untraced = Promise<Int, Boom>()
        FuturesDiagnostics.withFailureTracing {
            let (mapped, m) = (untraced.future.map(now) { $0 }, UInt(#line))
            untraced.failure(.boom)
            let trace = mapped.failureTrace
            #expect(trace?.steps == [step("map", m)])
            #expect(trace?.isComplete == false)
            #expect(trace?.description == "… → map at \(here):\(m)")
        }
    }

    @Test func tracingIsOffByDefault() {
        #expect(FuturesDiagnostics.failureTracing == false)
        let promise = Promise<Int, Boom>()
        let mapped = promise.future.map(now) { $0 }.recoverWith(context: now) { Future<Int, Boom>(error: $0) }
        promise.failure(.boom)
        #expect(mapped.error == .boom)
        #expect(mapped.failureTrace == nil)
        #expect(FailureTracing.node(of: mapped) == nil)
    }

    @Test func aFutureThatSucceededOrIsPendingHasNoTrace() {
        FuturesDiagnostics.withFailureTracing {
            let promise = Promise<Int, Boom>()
            let mapped = promise.future.map(now) { $0 }
            #expect(mapped.failureTrace == nil)
            promise.success(1)
            #expect(mapped.failureTrace == nil)
        }
    }

    @Test func theProcessSwitchTracesEveryTaskAndThread() async {
        // In a child process: the switch is process-wide, and other tests run meanwhile.
        await #expect(processExitsWith: .success) {
            FuturesDiagnostics.failureTracing = true
            let promise = Promise<Int, Boom>()
            let mapped = DispatchQueue.global().sync { promise.future.map(immediateExecutionContext) { $0 } }
            promise.failure(.boom)
            precondition(mapped.failureTrace?.steps.map(\.name) == ["Promise", "map"])
            FuturesDiagnostics.failureTracing = false
            let later = Promise<Int, Boom>()
            let laterMapped = later.future.map(immediateExecutionContext) { $0 }
            later.failure(.boom)
            precondition(laterMapped.failureTrace == nil)
            precondition(mapped.failureTrace != nil)  // recorded traces stay
        }
    }

    @Test func theTaskSwitchCoversItsScopeAndChildTasksOnly() async {
        @Sendable func failedChain() -> Future<Int, Boom> {
            let promise = Promise<Int, Boom>()
            let mapped = promise.future.map(now) { $0 }
            promise.failure(.boom)
            return mapped
        }
        await FuturesDiagnostics.withFailureTracing {
            #expect(failedChain().failureTrace?.steps.count == 2)
            let inChild = await Task { failedChain().failureTrace }.value
            #expect(inChild?.steps.count == 2)
            let inOtherTask = await Task.detached { failedChain().failureTrace }.value
            #expect(inOtherTask == nil)
            let onAnotherThread = await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: failedChain().failureTrace) }
            }
            #expect(onAnotherThread == nil)
        }
        #expect(failedChain().failureTrace == nil)
    }

    @Test func callbacksOnOtherContextsRecordTheirSteps() async {
        let futures = await FuturesDiagnostics.withFailureTracing {
            await withTaskGroup(of: Future<Int, Boom>.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let promise = Promise<Int, Boom>()
                        let chained = promise.future.map { $0 + index }.flatMap { _ in Future<Int, Boom>(error: .boom) }
                        DispatchQueue.global().async { promise.success(index) }
                        _ = try? await chained.get()
                        return chained
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        for future in futures {
            // The inner `Future(error:)` has no call site: the trace starts after it.
            let trace = future.failureTrace
            #expect(trace?.steps.map(\.name) == ["flatMap"])
            #expect(trace?.isComplete == false)
        }
    }

    @Test func debugPrintsTheTraceOfAFailure() {
        FuturesDiagnostics.withFailureTracing {
            let logger = LineLogger()
            let (promise, p) = (Promise<Int, Boom>(), UInt(#line))
            let (mapped, m) = (promise.future.map(now) { $0 }, UInt(#line))
            _ = mapped.debug("load", logger: logger, context: now)
            promise.failure(.boom)
            #expect(
                logger.lines.values == [
                    "Future load completed\nfailure trace: Promise at \(here):\(p) → map at \(here):\(m)"
                ])
        }
    }

    @Test func nodesAreReleasedWithTheirFutures() {
        weak var producerNode: TraceNode?
        weak var mappedNode: TraceNode?
        FuturesDiagnostics.withFailureTracing {
            let promise = Promise<Int, Boom>()
            let mapped = promise.future.map(now) { $0 }.andThen(context: now) { _ in }
            producerNode = FailureTracing.node(of: promise.future)
            mappedNode = FailureTracing.node(of: mapped)
            promise.failure(.boom)
            #expect(mapped.failureTrace?.steps.map(\.name) == ["Promise", "map", "andThen"])
        }
        #expect(producerNode == nil)
        #expect(mappedNode == nil)
    }

    @Test func aLongTracedChainIsReleasedWithoutRecursion() {
        weak var lastNode: TraceNode?
        FuturesDiagnostics.withFailureTracing {
            let promise = Promise<Int, Boom>()
            var future = promise.future
            for _ in 0..<100_000 { future = future.map(now) { $0 } }
            lastNode = FailureTracing.node(of: future)
            promise.failure(.boom)
            #expect(future.failureTrace?.steps.count == 100_001)
        }
        #expect(lastNode == nil)
    }

    @Test func retryContinuesTheTraceOfTheAttemptWhoseFailureItPassesOn() {
        FuturesDiagnostics.withFailureTracing {
            // Untraced attempts (`Future(error:)` has no call site): an incomplete trace through `retry`.
            let (untraced, u) = (Future<Int, Boom>.retry(3) { Future(error: .boom) }, UInt(#line))
            #expect(untraced.error == .boom)
            #expect(untraced.failureTrace?.description == "… → retry at \(here):\(u)")
            // Traced attempts: the last attempt's trace, then `retry`.
            let traced = Future<Int, Boom>.retry(2) { Promise<Int, Boom>().failing(.boom) }
            let (p, r) = (UInt(#line - 1), UInt(#line - 1))
            #expect(traced.failureTrace?.steps == [step("Promise", p), step("retry", r)])
            #expect(traced.failureTrace?.isComplete == true)
        }
    }

    @Test func retryCancelledDuringAWaitStartsTheTraceWithACancellationErrorOrContinuesTheLastAttempt() {
        FuturesDiagnostics.withFailureTracing {
            let clock = RecordingClock()
            let ownError = Future<Int, Flop>.retry(
                3, backoff: .constant(.seconds(1)), clock: clock, failingWith: .gaveUp
            ) {
                Future(error: .attempt)
            }
            let o = UInt(#line - 5)
            ownError.requestCancellation()
            #expect(ownError.error == .gaveUp)
            #expect(ownError.failureTrace?.steps == [step("retry", o)])
            #expect(ownError.failureTrace?.isComplete == true)
            let lastFailure = Future<Int, Flop>.retry(3, backoff: .constant(.seconds(1)), clock: clock) {
                Promise<Int, Flop>().failing(.attempt)
            }
            let (l, p) = (UInt(#line - 3), UInt(#line - 2))
            lastFailure.requestCancellation()
            #expect(lastFailure.error == .attempt)
            #expect(lastFailure.failureTrace?.steps == [step("Promise", p), step("retry", l)])
        }
    }

    @Test func urlSessionFuturesStartTheTraceOfATransportError() async {
        let refused = URL(string: "http://127.0.0.1:\(TestHTTPServer.closedPort())/")!
        let session = makeLoopbackSession()
        let (plain, withProgress, line) = FuturesDiagnostics.withFailureTracing {
            let plain = session.dataFuture(from: refused)
            let withProgress = session.dataFutureReportingProgress(for: URLRequest(url: refused))
            return (plain, withProgress, UInt(#line - 2))
        }
        _ = await plain.settledResult()
        _ = await withProgress.settledResult()
        #expect(plain.failureTrace?.steps == [step("dataFuture", line)])
        #expect(withProgress.failureTrace?.steps == [step("dataFutureReportingProgress", line + 1)])
    }
}

private enum Flop: Error {
    case attempt
    case gaveUp
}

extension Promise {
    /// Fails this promise with `error` and returns its future.
    fileprivate func failing(_ error: E) -> Future<T, E> {
        failure(error)
        return future
    }
}
