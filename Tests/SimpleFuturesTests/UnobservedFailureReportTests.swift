import Foundation
import Futures
import SimpleFutures
import Synchronization
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

/// In a child process: from now on, notes whether an unobserved failure is reported.
private func recordUnobservedFailureReports() {
    FuturesDiagnostics.setHandler { diagnostic in
        if case .unobservedFailure = diagnostic { unobservedFailureReported.store(true, ordering: .relaxed) }
    }
}

/// In a child process: exits with 3 if an unobserved failure was reported, else with 0. (Not from inside the
/// handler: the report is made while a future is being deallocated.)
private func exitSayingWhetherAnUnobservedFailureWasReported() -> Never {
    exit(unobservedFailureReported.load(ordering: .relaxed) ? 3 : 0)
}

/// Whether the child process saw an unobserved-failure report.
private let unobservedFailureReported = Atomic<Bool>(false)
