import Dispatch
import Foundation
import Testing

@testable import Futures

/// Runs `body` from its `deinit`: captured by a handler, a context or a value, it calls back into the library
/// when the library drops the last reference to it.
final class GOnDeinit: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    deinit { body() }
}

extension Guarantees {
    /// G7 for what the library replaces or drops under its own locks: process-wide settings, and the values a
    /// gathering combinator collected. Each test drops the last reference to an object whose `deinit` takes the
    /// same lock again; released under the lock, it would deadlock.
    @Suite("G7 Released after the lock")
    struct G7ReleasedAfterTheLockTests {
        /// `setHandler` releases the replaced handler after the lock: a `deinit` of something it captured
        /// reports a diagnostic, which reads the process-wide handler.
        @Test(.hangGuard())
        func replacingTheDiagnosticsHandlerReleasesTheOldOneAfterTheLock() {
            let log = GLog<String>()
            let finished = gFinishes("replacing the process-wide diagnostics handler") {
                do {
                    // On this plain thread no task-local handler applies: the report reads the process-wide one.
                    let reporter = GOnDeinit {
                        let promise = Promise<Int, Never>()
                        promise.success(1)
                        promise.success(2)
                    }
                    FuturesDiagnostics.setHandler { _ in withExtendedLifetime(reporter) {} }
                }
                FuturesDiagnostics.setHandler { diagnostic in
                    if case .promiseCompletedTwice(let file, _) = diagnostic,
                        file.hasSuffix("G7ReleasedAfterTheLockTests.swift")
                    {
                        log.append("reported to the new handler")
                    } else {
                        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
                    }
                }
                FuturesDiagnostics.setHandler(nil)
            }
            #expect(finished)
            #expect(log.values == ["reported to the new handler"])
        }

        /// `sequence`, `traverse` and `fold` fail with the first failure in list order and release the values
        /// they collected after their lock: a value's `deinit` completes another input.
        @Test(.hangGuard(), arguments: ["sequence", "traverse", "fold"])
        func aFailingGatherReleasesTheValuesItCollectedAfterTheLock(_ step: String) {
            let log = GLog<String>()
            let finished = gFinishes("a failing \(step) releasing a collected value") {
                let late = Promise<GOnDeinit, any Error>()
                let failing = Promise<GOnDeinit, any Error>()
                let gathered = Self.gather(step, late: late, failing: failing, log: log)
                gathered.onFailure(immediateExecutionContext) { _ in log.append("failed") }
                failing.failure(GError.failed(1))
            }
            #expect(finished)
            #expect(log.values == ["failed", "collected value released"])
        }

        /// Gathers three inputs with `step`: the first succeeded with a value whose `deinit` completes `late`
        /// (the third); the collector holds the only reference to that value once this returns.
        private static func gather(
            _ step: String, late: Promise<GOnDeinit, any Error>, failing: Promise<GOnDeinit, any Error>,
            log: GLog<String>
        ) -> Future<Int, any Error> {
            let first = Promise<GOnDeinit, any Error>()
            first.success(
                GOnDeinit {
                    late.trySuccess(GOnDeinit {})
                    log.append("collected value released")
                })
            let inputs = [first.future, failing.future, late.future]
            switch step {
            case "sequence":
                return inputs.sequence().map(immediateExecutionContext) { $0.count }
            case "traverse":
                return [0, 1, 2].traverse(immediateExecutionContext) { inputs[$0] }.map(immediateExecutionContext) {
                    $0.count
                }
            default:
                return inputs.fold(immediateExecutionContext, zero: 0) { count, _ in count + 1 }
            }
        }
    }
}

extension DefaultContextTests {
    /// G7: `setProcessDefault` releases the replaced context after the lock: a `deinit` of something it
    /// captured reads the default context. (Here, in this serialized suite, because it changes the process-wide
    /// default that other tests of the suite set too.)
    @Test(.hangGuard())
    func replacingTheProcessDefaultReleasesTheOldContextAfterTheLock() {
        let seen = GLog<Bool>()
        let finished = gFinishes("replacing the process-wide default context") {
            do {
                // On this plain thread no task-local override applies: the read takes the process-wide one.
                let reader = GOnDeinit { seen.append(defaultContext().isImmediate) }
                // Behaves like the off-main default, so tests running meanwhile see no difference.
                DefaultExecutionContext.setProcessDefault(
                    ExecutionContext { task in
                        withExtendedLifetime(reader) {}
                        DispatchQueue.global().async(execute: task)
                    })
            }
            DefaultExecutionContext.setProcessDefault(nil)
        }
        #expect(finished)
        #expect(seen.values == [false])
    }
}
