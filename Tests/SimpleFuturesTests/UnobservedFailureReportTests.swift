import Foundation
import Futures
import SimpleFutures
import Testing

/// A failure nobody handled is reported with this module too, by default (the policy is one setting for
/// the process), and `.off` turns the reports off. Each case runs in a child process of its own, where the
/// policy is the default and no other test changes it: the child exits with 3 at the first
/// unobserved-failure report, with 0 if there was none.
@Suite("SimpleFutures: unobserved failures")
struct UnobservedFailureReportTests {
    @Test func aFailedPromiseDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            exitOnUnobservedFailureReport()
            do {
                let promise = SimpleFutures.Promise<Int>()
                promise.failure(TestError.failed)
            }
            exit(0)
        }
    }

    @Test func aFutureMadeFailedAndDroppedUnobservedIsReportedByDefault() async {
        await #expect(processExitsWith: .exitCode(3)) {
            exitOnUnobservedFailureReport()
            _ = SimpleFutures.Future<Int>(error: TestError.failed)
            exit(0)
        }
    }

    @Test func aFailureACallbackSawIsNotReported() async {
        await #expect(processExitsWith: .success) {
            exitOnUnobservedFailureReport()
            do {
                let promise = SimpleFutures.Promise<Int>()
                promise.future.onFailure(context: ImmediateContext()) { _ in }
                promise.failure(TestError.failed)
            }
            exit(0)
        }
    }

    @Test func theReportsAreTurnedOffForTheProcess() async {
        await #expect(processExitsWith: .success) {
            exitOnUnobservedFailureReport()
            FuturesDiagnostics.unobservedFailures = .off
            _ = SimpleFutures.Future<Int>(error: TestError.failed)
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
