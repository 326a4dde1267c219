import Bolts
import Foundation
import Futures
import Testing

/// A faulted task nobody looked at is reported with this module too, by default (the policy is one
/// setting for the process); a cancelled task is not, and `.off` turns the reports off. Each case runs in a
/// child process of its own, where the policy is the default and no other test changes it: the child exits
/// with 3 at the first unobserved-failure report, with 0 if there was none.
@Suite("Bolts: unobserved failures")
struct UnobservedFailureReportTests {
    @Test func aSourceFaultedAndDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            exitOnUnobservedFailureReport()
            do {
                let source = BFTaskCompletionSource<NSNumber>()
                source.set(error: NSError(domain: "test", code: 1))
            }
            exit(0)
        }
    }

    @Test func aTaskMadeFaultedAndDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            exitOnUnobservedFailureReport()
            _ = BFTask<NSNumber>(error: NSError(domain: "test", code: 2))
            exit(0)
        }
    }

    @Test func aCancelledTaskIsNotReported() async {
        await #expect(processExitsWith: .success) {
            exitOnUnobservedFailureReport()
            do {
                let source = BFTaskCompletionSource<NSNumber>()
                source.cancel()
            }
            _ = BFTask<NSNumber>.cancelled()
            exit(0)
        }
    }

    @Test func theReportsAreTurnedOffForTheProcess() async {
        await #expect(processExitsWith: .success) {
            exitOnUnobservedFailureReport()
            FuturesDiagnostics.unobservedFailures = .off
            _ = BFTask<NSNumber>(error: NSError(domain: "test", code: 3))
            exit(0)
        }
    }
}

/// In a child process: exits with 3 at the first unobserved-failure report.
private func exitOnUnobservedFailureReport() {
    FuturesDiagnostics.setHandler { diagnostic in
        if case .unobservedFailure = diagnostic { exit(3) }
    }
}
