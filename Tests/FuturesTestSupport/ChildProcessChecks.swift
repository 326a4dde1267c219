import Futures
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a failed ``childRequire(_:_:)`` writes before its message, on the child's standard error.
private let childFailureMarker = "CHILD CHECK FAILED: "

/// A check made in an exit test's child process: when `condition` is false, writes `message` to standard
/// error and ends the child with a successful exit, so that the parent's
/// ``expectChildPassed(_:sourceLocation:)`` sees the message (Swift Testing returns no result, and so no
/// standard error, for a child that exits with another condition than the expected one).
public func childRequire(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    var line = childFailureMarker + message() + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }  // unbuffered
    exit(0)
}

/// Records, at `sourceLocation`, every ``childRequire(_:_:)`` that failed in the exit test whose result
/// is `child` (observed with `[\.standardErrorContent]`). A child that did not exit successfully is
/// already recorded by the exit test's own expectation.
public func expectChildPassed(_ child: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let child else { return }
    let failures = String(decoding: child.standardErrorContent, as: UTF8.self)
        .split(separator: "\n")
        .filter { $0.hasPrefix(childFailureMarker) }
    for failure in failures {
        Issue.record("\(failure.dropFirst(childFailureMarker.count))", sourceLocation: sourceLocation)
    }
}

/// The report check of every enumeration test, made in an exit test's child with pending-futures
/// tracking on: `make` derives a future from a pending promise's future; the report must list it under
/// that promise as `step` at `file`:`line`, waiting on something, and once the promise has completed
/// nothing may be left pending at the promise's line. `row` names the row in a failure.
public func childRequireListedUnderItsInput<E: Error>(
    _ row: String, step: String, file: String, line: Int, failingWith _: E.Type = E.self,
    _ make: (Future<Int, E>) -> AnyObject
) {
    let promise = Promise<Int, E>()
    let promiseLine = UInt(#line - 1)
    let made = make(promise.future)
    let chains = FuturesDiagnostics.pendingFutures()
    let chain = chains.first { $0.site.name == "Promise" && $0.site.line == promiseLine }
    childRequire(chain != nil, "\(row): no chain for its input in \(chains)")
    let listed = chain!.dependents.first {
        $0.site.name == step && $0.site.file == file && $0.site.line == UInt(line)
    }
    childRequire(listed != nil, "\(row) is not listed under its input: \(chain!)")
    childRequire(!listed!.waitsOn.isEmpty, "\(row) waits for nothing: \(chain!)")
    promise.success(1)
    withExtendedLifetime(made) {}
    childRequire(
        FuturesDiagnostics.pendingFutures().allSatisfy { $0.site.line != promiseLine },
        "\(row) left a pending future: \(FuturesDiagnostics.pendingFutures())")
}

/// In an exit test's child process: from now on, notes whether an unobserved failure is reported (see
/// ``exitSayingWhetherAnUnobservedFailureWasReported()``).
public func recordUnobservedFailureReports() {
    FuturesDiagnostics.setHandler { diagnostic in
        if case .unobservedFailure = diagnostic { unobservedFailureReported.store(true, ordering: .relaxed) }
    }
}

/// In an exit test's child process: exits with 3 if an unobserved failure was reported since
/// ``recordUnobservedFailureReports()``, else with 0. (Not from inside the handler: the report is made while
/// a future is being deallocated.)
public func exitSayingWhetherAnUnobservedFailureWasReported() -> Never {
    exit(unobservedFailureReported.load(ordering: .relaxed) ? 3 : 0)
}

/// Whether the child process saw an unobserved-failure report.
private let unobservedFailureReported = Atomic<Bool>(false)
