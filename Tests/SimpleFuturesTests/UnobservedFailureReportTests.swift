import Foundation
import Futures
import FuturesTestSupport
import SimpleFutures
import Testing

/// A failure nobody handled is reported with this module too, by default (the policy is one setting for
/// the process), and `.off` turns the reports off. Each case runs in a child process of its own, where the
/// policy is the default and no other test changes it: the child exits with 3 if an unobserved failure
/// was reported, with 0 if there was none.
@Suite("SimpleFutures: unobserved failures")
struct UnobservedFailureReportTests {
    @Test func aFailedPromiseDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            recordUnobservedFailureReports()
            do {
                let promise = SimpleFutures.Promise<Int>()
                promise.failure(TestError.failed)
            }
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }

    @Test func aFutureMadeFailedAndDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            recordUnobservedFailureReports()
            _ = SimpleFutures.Future<Int>(error: TestError.failed)
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }

    @Test func aFailureACallbackSawIsNotReported() async {
        await #expect(processExitsWith: .success) {
            recordUnobservedFailureReports()
            do {
                let promise = SimpleFutures.Promise<Int>()
                promise.future.onFailure(context: ImmediateContext()) { _ in }
                promise.failure(TestError.failed)
            }
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }

    @Test func theReportsAreTurnedOffForTheProcess() async {
        await #expect(processExitsWith: .success) {
            recordUnobservedFailureReports()
            FuturesDiagnostics.unobservedFailures = .off
            _ = SimpleFutures.Future<Int>(error: TestError.failed)
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }
}
