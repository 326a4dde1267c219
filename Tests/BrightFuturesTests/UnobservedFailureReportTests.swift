import BrightFutures
import FuturesTestSupport
import Testing

/// A failure nobody handled is reported with this module too, by default (the policy is one setting for
/// the process, whichever face made the future); a failure from a token the app invalidated is not, and
/// `.off` turns the reports off. Each case runs in a child process of its own, where the policy is the
/// default and no other test changes it: the child exits with 3 if an unobserved failure was reported,
/// with 0 if there was none.
@Suite("BrightFutures: unobserved failures")
struct UnobservedFailureReportTests {
    @Test func aFailedPromiseDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            recordUnobservedFailureReports()
            do {
                let promise = Promise<Int, BrightFuturesError<Never>>()
                promise.failure(.illegalState)
            }
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }

    @Test func aFutureMadeFailedAndDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            recordUnobservedFailureReports()
            _ = Future<Int, BrightFuturesError<Never>>(error: .noSuchElement)
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }

    @Test func aFailureFromAnInvalidatedTokenIsNotReported() async {
        await #expect(processExitsWith: .success) {
            recordUnobservedFailureReports()
            do {
                let before = InvalidationToken()
                let pending: Future<Never, BrightFuturesError<Never>> =
                    before.future.mapError(immediateExecutionContext) { $0 }
                withExtendedLifetime(pending) { before.invalidate() }
                let after = InvalidationToken()
                after.invalidate()
                _ = after.future.mapError(immediateExecutionContext) { $0 }
            }
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }

    @Test func theReportsAreTurnedOffForTheProcess() async {
        await #expect(processExitsWith: .success) {
            recordUnobservedFailureReports()
            FuturesDiagnostics.unobservedFailures = .off
            _ = Future<Int, BrightFuturesError<Never>>(error: .noSuchElement)
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }
}
