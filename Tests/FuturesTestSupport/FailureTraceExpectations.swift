import Futures
import Testing

/// Expects `trace` to end with the step `step` recorded at `file`:`line`: the check every face's
/// enumeration test makes of the future each way makes (a step named at its caller's line). A failed
/// expectation is reported at `sourceLocation`.
public func expectTrace(
    _ trace: FailureTrace?, endsWith step: String, at file: String, line: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let last = trace?.steps.last
    #expect(
        last?.name == step, "\(trace.map(String.init(describing:)) ?? "no trace")", sourceLocation: sourceLocation)
    #expect(last?.file == file, sourceLocation: sourceLocation)
    #expect(last?.line == UInt(line), sourceLocation: sourceLocation)
}
