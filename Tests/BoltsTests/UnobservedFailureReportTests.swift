import Bolts
import Foundation
import Futures
import FuturesTestSupport
import Testing

/// A faulted task nobody looked at is reported with this module too, by default (the policy is one
/// setting for the process); a cancelled task is not, and `.off` turns the reports off. Each case runs in a
/// child process of its own, where the policy is the default and no other test changes it: the child exits
/// with 3 if an unobserved failure was reported, with 0 if there was none.
@Suite("Bolts: unobserved failures")
struct UnobservedFailureReportTests {
    @Test func aSourceFaultedAndDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            recordUnobservedFailureReports()
            do {
                let source = BFTaskCompletionSource<NSNumber>()
                source.set(error: NSError(domain: "test", code: 1))
            }
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }

    @Test func aTaskMadeFaultedAndDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            recordUnobservedFailureReports()
            _ = BFTask<NSNumber>(error: NSError(domain: "test", code: 2))
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }

    @Test func aCancelledTaskIsNotReported() async {
        await #expect(processExitsWith: .success) {
            recordUnobservedFailureReports()
            do {
                let source = BFTaskCompletionSource<NSNumber>()
                source.cancel()
            }
            _ = BFTask<NSNumber>.cancelled()
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }

    @Test func theReportsAreTurnedOffForTheProcess() async {
        await #expect(processExitsWith: .success) {
            recordUnobservedFailureReports()
            FuturesDiagnostics.unobservedFailures = .off
            _ = BFTask<NSNumber>(error: NSError(domain: "test", code: 3))
            exitSayingWhetherAnUnobservedFailureWasReported()
        }
    }
}
