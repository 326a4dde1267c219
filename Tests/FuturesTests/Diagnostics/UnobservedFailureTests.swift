import Testing

@testable import Futures

/// Unobserved failures. The policy is process-wide: these tests run one at a time, set it and restore it.
@Suite("Unobserved failures", .serialized)
struct UnobservedFailureTests {
    /// Runs `body` with `policy` and returns the unobserved-failure reports it raised on this task.
    func reports(
        _ policy: UnobservedFailurePolicy = .report,
        _ body: () -> Void
    ) -> [FuturesDiagnostic] {
        let previous = FuturesDiagnostics.unobservedFailures
        FuturesDiagnostics.unobservedFailures = policy
        defer { FuturesDiagnostics.unobservedFailures = previous }
        return gDiagnostics(body).filter {
            if case .unobservedFailure = $0 { true } else { false }
        }
    }

    @Test func aFailedPromiseDroppedUnobservedIsReportedOnceWithWhereItWasCreated() {
        let found = reports {
            let promise = Promise<Int, ComboError>()
            promise.failure(.first)
        }
        #expect(found.count == 1)
        guard case .unobservedFailure(let type, let error, let file, let line, _)? = found.first else { return }
        #expect(type == "Future<Int, ComboError>")
        #expect(error == "first")
        #expect(file?.hasSuffix("UnobservedFailureTests.swift") == true)
        #expect(line == 23)
        #expect(found.first?.description.contains("without anyone looking at its failure") == true)
    }

    @Test func aFailedFutureWithoutAPromiseIsReportedWithoutALocation() {
        let found = reports {
            _ = Future<Int, ComboError>(error: .second)
        }
        #expect(found == [.unobservedFailure(type: "Future<Int, ComboError>", error: "second", file: nil, line: nil)])
    }

    @Test func aFailureTheResolverDeliversIsReportedWithTheResolversPlace() {
        let found = reports {
            _ = Future<Int, ComboError> { complete in complete(.failure(.first)) }
        }
        #expect(found.count == 1)
        if case .unobservedFailure(_, _, let file, let line, _)? = found.first {
            #expect(file != nil && line == 44)
        }
    }

    @Test(arguments: ObservationPath.allCases)
    func anObservedFailureIsNeverReported(_ path: ObservationPath) async {
        let previous = FuturesDiagnostics.unobservedFailures
        FuturesDiagnostics.unobservedFailures = .report
        defer { FuturesDiagnostics.unobservedFailures = previous }
        let log = GLog<FuturesDiagnostic>()
        await FuturesDiagnostics.withHandler({ log.append($0) }) {
            let pending = Promise<Int, ComboError>()
            await path.observe(pending.future)
            pending.failure(.first)
            await path.observe(Future<Int, ComboError>(error: .second))
        }
        #expect(log.values.isEmpty)
    }

    @Test func successesAndPendingFuturesAreNeverReported() {
        let found = reports {
            let promise = Promise<Int, ComboError>()
            promise.success(1)
            _ = Future<Int, ComboError>(value: 2)
            _ = Future<Int, ComboError>()
        }
        #expect(found.isEmpty)
    }

    @Test func offReportsNothing() {
        let found = reports(.off) {
            let promise = Promise<Int, ComboError>()
            promise.failure(.first)
            // Off: not even the origin is recorded (no side-table entry).
            #expect(FutureExtras.entry(of: promise.future) == nil)
            _ = Future<Int, ComboError>(error: .second)
        }
        #expect(found.isEmpty)
    }

    @Test func onlyTheUnobservedEndOfAChainIsReported() {
        let found = reports {
            let promise = Promise<Int, ComboError>()
            let mapped = promise.future.map(immediateExecutionContext) { $0 + 1 }
            _ = mapped.mapError(immediateExecutionContext) { _ in ComboError.second }
            promise.failure(.first)
        }
        #expect(found.count == 1)
        if case .unobservedFailure(_, let error, let file, _, _)? = found.first {
            #expect(error == "second" && file == nil)
        }
    }

    /// `zip` on a receiver that failed already is decided at once, yet still takes `other` as an input: its
    /// later failure is observed (by the pair), as when the receiver fails while `zip` waits.
    @Test(arguments: GEntry.allCases)
    func theOtherInputOfAZipDecidedByItsReceiversFailureIsObserved(_ entry: GEntry) {
        let found = reports {
            let receiver = Promise<Int, ComboError>()
            if entry == .completed { receiver.failure(.first) }
            let other = Promise<Int, ComboError>()
            let pair = receiver.future.zip(other.future)
            if entry == .pendingThenCompleted { receiver.failure(.first) }
            pair.onFailure(immediateExecutionContext) { _ in }
            other.failure(.second)
        }
        #expect(found.isEmpty)
    }

    @Test func aRemovedCallbackStillCountsAsAnObservation() {
        let found = reports {
            let promise = Promise<Int, ComboError>()
            let token = CancelToken()
            promise.future.onFailure(context: immediateExecutionContext, cancelToken: token) { _ in }
            promise.future.cancel(token)
            promise.failure(.first)
        }
        #expect(found.isEmpty)
    }

    @Test func thePolicyReadsBackWhatWasSet() {
        let previous = FuturesDiagnostics.unobservedFailures
        defer { FuturesDiagnostics.unobservedFailures = previous }
        for policy in UnobservedFailurePolicy.allCases {
            FuturesDiagnostics.unobservedFailures = policy
            #expect(FuturesDiagnostics.unobservedFailures == policy)
        }
    }

    @Test func trapInDebugStopsADebugBuildAtTheFirstUnobservedFailure() async {
        // In a child process each, since it stops; the tests are built for debugging (`-Onone`).
        await #expect(processExitsWith: .failure) {
            FuturesDiagnostics.setHandler { _ in }
            FuturesDiagnostics.unobservedFailures = .trapInDebug
            _ = Future<Int, ComboError>(error: .first)
        }
        // The same drop under `.report` only reports: the process goes on.
        await #expect(processExitsWith: .success) {
            FuturesDiagnostics.setHandler { _ in }
            FuturesDiagnostics.unobservedFailures = .report
            _ = Future<Int, ComboError>(error: .first)
        }
    }

    /// An observer watches without handling: a failure only it saw is still reported; a callback handles it.
    @Test func aFailureOnlyAnObserverSawIsStillReported() {
        let observed = reports {
            let promise = Promise<Int, ComboError>()
            promise.future.observe(immediateExecutionContext) { _ in }
            promise.failure(.first)
        }
        #expect(observed.count == 1)
        let handled = reports {
            let promise = Promise<Int, ComboError>()
            promise.future.onComplete(immediateExecutionContext) { _ in }
            promise.failure(.first)
        }
        #expect(handled.isEmpty)
    }

    /// A future a drain ended with `FuturesError.shutDown` is not reported (the drain listed it), pending
    /// or completed work alike; another failure of a limiter item still is.
    @Test func aShutDownFailureIsNotReported() {
        let ended = reports {
            let limiter = ConcurrencyLimiter(maxConcurrent: 2)
            _ = limiter.submit { Promise<Int, Never>().future }
            _ = limiter.submit { Future<Int, ComboError>(error: .first) }
            _ = limiter.endRunning()
        }
        #expect(ended.count == 1)
        #expect(ended.first?.description.contains("first") == true)
    }

    /// A failure with `invalidationTokenInvalidated` comes from a token the app invalidated on purpose:
    /// futures derived from the token's future are not reported, whether they were derived before the
    /// invalidation (pending) or after it (completed); the combinator's other failures still are.
    @Test func aFailureFromAnInvalidatedTokenIsNotReported() {
        let invalidated = reports {
            let before = InvalidationToken()
            let pending: Future<Never, CombinatorError<ComboError>> = before.future.promoteError()
            withExtendedLifetime(pending) { before.invalidate() }
            let after = InvalidationToken()
            after.invalidate()
            let promoted: Future<Never, CombinatorError<ComboError>> = after.future.promoteError()
            _ = promoted.mapError(immediateExecutionContext) { $0 }
        }
        #expect(invalidated.isEmpty)
        let others = reports {
            _ = Future<Int, CombinatorError<ComboError>>(error: .noSuchElement)
            _ = Future<Int, CombinatorError<ComboError>>(error: .external(.first))
        }
        #expect(others.count == 2)
    }
}

/// Each way of looking at a future's failure.
enum ObservationPath: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case onComplete, onFailure, onSuccess, map, recover, get, forced, result, error, sequence, settled

    var testDescription: String { rawValue }

    func observe(_ future: Future<Int, ComboError>) async {
        switch self {
        case .onComplete: future.onComplete(immediateExecutionContext) { _ in }
        case .onFailure: future.onFailure(immediateExecutionContext) { _ in }
        case .onSuccess: future.onSuccess(immediateExecutionContext) { _ in }
        case .map:
            _ = future.map(immediateExecutionContext) { $0 }.recover(context: immediateExecutionContext) { _ in 0 }
        case .recover: _ = future.recover(context: immediateExecutionContext) { _ in 0 }
        case .get:
            if future.isCompleted {
                _ = try? await future.get()
            } else {
                future.onComplete(immediateExecutionContext) { _ in }
            }
        case .forced:
            if future.isCompleted { _ = future.forced() } else { _ = future.forced(.now()) }
        case .result: _ = future.result
        case .error: _ = future.error
        case .sequence: _ = [future].sequence().recover(context: immediateExecutionContext) { _ in [] }
        case .settled: _ = [future].settled()
        }
    }
}

/// A dropped promise is one report, `promiseDropped`: the `brokenPromise` failure it causes is its
/// consequence, not reported again as unobserved, for its future or any future derived from it.
extension UnobservedFailureTests {
    /// Every report `body` raises on this task, with the policy `.report`.
    func allReports(_ body: () -> Void) -> [FuturesDiagnostic] {
        let previous = FuturesDiagnostics.unobservedFailures
        FuturesDiagnostics.unobservedFailures = .report
        defer { FuturesDiagnostics.unobservedFailures = previous }
        return gDiagnostics(body)
    }

    @Test func aDroppedPromiseWhoseFutureNobodyObservesMakesOneReport() {
        var line: UInt = 0
        let found = allReports {
            line = #line + 1
            _ = Promise<Int, any Error>()
        }
        #expect(
            found == [
                .promiseDropped(
                    type: "Promise<Int, Error>", file: "FuturesTests/UnobservedFailureTests.swift", line: line)
            ])
    }

    @Test func aDroppedPromiseWhoseChainNobodyObservesMakesOneReport() {
        let found = allReports {
            let promise = Promise<Int, any Error>()
            _ = promise.future.map(immediateExecutionContext) { $0 + 1 }.flatMap(immediateExecutionContext) {
                Future<Int, any Error>(value: $0)
            }
        }
        #expect(found.count == 1)
        #expect(found.allSatisfy { if case .promiseDropped = $0 { true } else { false } }, "got \(found)")
    }

    /// The future is held past the promise and dropped later, unobserved: still the one report.
    @Test func aBrokenFutureDroppedAfterItsPromiseIsNotReportedAgain() {
        let found = allReports {
            var future: Future<Int, FuturesError>?
            do {
                let promise = Promise<Int, FuturesError>()
                future = promise.future
            }
            #expect(future?.isKnownCompleted == true)
            future = nil
        }
        #expect(found.count == 1)
        #expect(found.allSatisfy { if case .promiseDropped = $0 { true } else { false } }, "got \(found)")
    }

    /// Whoever observes the future sees `brokenPromise`; the drop is reported, once.
    @Test func aDroppedPromiseWhoseFutureIsObservedReportsTheDropOnce() {
        let seen = GLog<Result<Int, any Error>>()
        let found = allReports {
            let promise = Promise<Int, any Error>()
            promise.future.onComplete(immediateExecutionContext) { seen.append($0) }
        }
        #expect(found.count == 1)
        #expect(found.allSatisfy { if case .promiseDropped = $0 { true } else { false } }, "got \(found)")
        #expect(seen.values.count == 1)
        if case .failure(let error)? = seen.values.first {
            #expect(error as? FuturesError == .brokenPromise)
        } else {
            Issue.record("got \(seen.values)")
        }
    }

    /// A promise that cannot fail with `brokenPromise` is reported as dropped; its future stays pending.
    @Test func aDroppedPromiseOfAnotherErrorTypeIsReportedOnceAndItsFutureStaysPending() {
        let found = allReports {
            var future: Future<Int, ComboError>?
            do { future = Promise<Int, ComboError>().future }
            #expect(future?.isCompleted == false)
            future = nil
        }
        #expect(found.count == 1)
        #expect(found.allSatisfy { if case .promiseDropped = $0 { true } else { false } }, "got \(found)")
    }

    /// An unobserved failure that no dropped promise caused is reported as before, promise or not.
    @Test func anUnobservedFailureWithoutADroppedPromiseIsStillReported() {
        let found = allReports {
            let promise = Promise<Int, any Error>()
            promise.failure(ComboError.second)
            _ = Future<Int, any Error>(error: ComboError.first)
        }
        #expect(found.count == 2)
        #expect(found.allSatisfy { if case .unobservedFailure = $0 { true } else { false } }, "got \(found)")
    }
}
