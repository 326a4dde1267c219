import Futures
import SimpleFutures
import Synchronization
import Testing

// A second completion of a SimpleFutures future or promise is reported at the line that made it, in
// the user's file, and the one-parameter writers still pass as function values.

@Suite("SimpleFutures: a second completion is reported at the caller's line")
struct CompletedTwiceReportTests {
    /// Runs `body` with a diagnostics handler and returns the sites of the `futureCompletedTwice` reports.
    func completedTwiceSites(_ body: () -> Void) -> [Site] {
        let seen = Mutex<[Site]>([])
        FuturesDiagnostics.withHandler({ diagnostic in
            if case .futureCompletedTwice(let file, let line) = diagnostic {
                seen.withLock { $0.append(Site(file: file, line: line)) }
            }
        }) { body() }
        return seen.withLock { $0 }
    }

    struct Site: Equatable, CustomStringConvertible {
        let file: String
        let line: UInt
        var description: String { "\(file):\(line)" }
    }

    static let here = #fileID

    @Test func futureSuccessFailureAndCompleteReportAtTheirLines() {
        let future = SimpleFutures.Future<Int>()
        var expected: [Site] = []
        let sites = completedTwiceSites {
            future.success(1)
            expected.append(Site(file: Self.here, line: #line + 1))
            future.success(2)
            expected.append(Site(file: Self.here, line: #line + 1))
            future.failure(TestError.failed)
            expected.append(Site(file: Self.here, line: #line + 1))
            future.complete(.success(3))
        }
        #expect(future.result?.value == 1)
        #expect(sites == expected)
    }

    @Test func promiseSuccessFailureAndCompleteReportAtTheirLines() {
        let promise = SimpleFutures.Promise<Int>()
        var expected: [Site] = []
        let sites = completedTwiceSites {
            promise.failure(TestError.failed)
            expected.append(Site(file: Self.here, line: #line + 1))
            promise.success(2)
            expected.append(Site(file: Self.here, line: #line + 1))
            promise.complete(.success(3))
            expected.append(Site(file: Self.here, line: #line + 1))
            promise.failure(TestError.failed)
        }
        #expect(promise.future.result?.error as? TestError == .failed)
        #expect(sites == expected)
    }

    @Test func aLosingCompleteWithReportsAtItsLine() {
        let future = SimpleFutures.Future(value: 1)
        let pending = SimpleFutures.Future<Int>()
        let promise = SimpleFutures.Promise<Int>()
        promise.success(0)
        var expected: [Site] = []
        let sites = completedTwiceSites {
            expected.append(Site(file: Self.here, line: #line + 1))
            future.completeWith(context: ImmediateContext(), future: SimpleFutures.Future(value: 2))
            expected.append(Site(file: Self.here, line: #line + 1))
            future.completeWith(context: ImmediateContext(), future: pending)
            expected.append(Site(file: Self.here, line: #line + 1))
            future.completeWith(context: ImmediateContext(), future: .failure(TestError.failed))
            expected.append(Site(file: Self.here, line: #line + 1))
            promise.completeWith(context: ImmediateContext(), future: SimpleFutures.Future(value: 2))
            // The hand-over from a pending future loses later, when it completes: still at its line.
            pending.success(5)
        }
        #expect(future.result?.value == 1)
        #expect(promise.future.result?.value == 0)
        #expect(sites.sorted { $0.line < $1.line } == expected)
    }

    @Test func aResolverCalledTwiceReportsAtTheFuturesLine() {
        var complete: (@Sendable (Try<Int>) -> Void)?
        var expected: [Site] = []
        let sites = completedTwiceSites {
            expected.append(Site(file: Self.here, line: #line + 1))
            let future = SimpleFutures.Future<Int> { completion in complete = completion }
            complete?(.success(1))
            complete?(.success(2))
            #expect(future.result?.value == 1)
        }
        #expect(sites == expected)
    }

    @Test func theOneParameterWritersStillPassAsFunctionValues() {
        let source = SimpleFutures.Future<Int>()
        let failing = SimpleFutures.Future<Int>()
        let promise = SimpleFutures.Promise<Int>()
        let failed = SimpleFutures.Promise<Int>()
        let completed = SimpleFutures.Future<Int>()
        let copied = SimpleFutures.Future<Int>()
        source.onSuccess(context: ImmediateContext(), completion: promise.success)
        failing.onFailure(context: ImmediateContext(), completion: failed.failure)
        source.onComplete(context: ImmediateContext(), completion: completed.complete)
        source.onSuccess(context: ImmediateContext(), completion: copied.success)
        let typed: @Sendable (Int) -> Void = promise.success
        source.success(7)
        failing.failure(TestError.failed)
        #expect(promise.future.result?.value == 7)
        #expect(failed.future.result?.error as? TestError == .failed)
        #expect(completed.result?.value == 7)
        #expect(copied.result?.value == 7)
        // A function value has no call site of its own: its second completion names the face's file.
        let sites = completedTwiceSites { typed(8) }
        #expect(sites.count == 1)
        #expect(sites.allSatisfy { $0.file.hasPrefix("SimpleFutures/") })
        #expect(promise.future.result?.value == 7)
    }
}
