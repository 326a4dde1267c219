import Futures
import Testing

/// Expects `trace` to end with the step `step` recorded at `file`:`line`: the check every face's
/// enumeration test makes of the future each way makes (a step named at its caller's line).
public func expectTrace(_ trace: FailureTrace?, endsWith step: String, at file: String, line: Int) {
    let last = trace?.steps.last
    #expect(last?.name == step, "\(trace.map(String.init(describing:)) ?? "no trace")")
    #expect(last?.file == file)
    #expect(last?.line == UInt(line))
}
