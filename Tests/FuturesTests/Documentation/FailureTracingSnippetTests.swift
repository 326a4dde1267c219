import Foundation
import Testing

@testable import Futures

/// The article's `fetchName`: never reached, the promise fails first.
private func fetchName(_ id: Int) -> Future<String, any Error> { Future(value: "Ada") }

// The code of the catalog's "Failure tracing" article (Futures.docc/FailureTracing.md), verbatim:
// scripts/check-doc-snippets.sh fails when the two drift apart.
@Suite("Docs: Failure tracing", .serialized)
struct FailureTracingSnippetTests {
    @Test func theProcessSwitchTurnsTracingOnEverywhere() async {
        // In a child process: the switch is process-wide, and other tests run meanwhile.
        await #expect(processExitsWith: .success) {
            FuturesDiagnostics.failureTracing = true
            precondition(FuturesDiagnostics.failureTracing)
        }
    }

    @Test func aTaskScopeTracesTheChain() {
        let first = UInt(#line + 1)
        let name = FuturesDiagnostics.withFailureTracing {
            let promise = Promise<Int, any Error>()
            let name = promise.future
                .map(immediateExecutionContext) { $0 + 1 }
                .flatMap(immediateExecutionContext) { id in fetchName(id) }
            promise.failure(URLError(.timedOut))
            return name
        }
        if let trace = name.failureTrace {
            // Promise at App/Login.swift:2 → map at App/Login.swift:4 → flatMap
            // at App/Login.swift:5
            print(trace)
        }
        // The lines the article's comment shows, relative to the snippet's first line (line 1).
        let here = "\(#fileID)"
        #expect(
            name.failureTrace?.description
                == "Promise at \(here):\(first + 1) → map at \(here):\(first + 3) → flatMap at \(here):\(first + 4)")
    }
}
