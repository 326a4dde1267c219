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
