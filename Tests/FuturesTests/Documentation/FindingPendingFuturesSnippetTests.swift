import Testing

@testable import Futures

/// The article's `drawScreen`: never reached, the theme never arrives.
private func drawScreen(_ theme: String) -> Future<String, any Error> { Future(value: "screen in \(theme)") }

// The code of the catalog's "Finding pending futures" article (Futures.docc/FindingPendingFutures.md),
// verbatim: scripts/check-doc-snippets.sh fails when the two drift apart. The switch is process-wide, so
// each test runs in a child process; the bodies live in functions because `#line` inside an exit test's
// closure is the line of the `#expect`.
@Suite("Docs: Finding pending futures")
struct FindingPendingFuturesSnippetTests {
    @Test func theReportNamesTheForgottenPromise() async {
        await #expect(processExitsWith: .success) { theReportNamesTheForgottenPromiseBody() }
    }

    @Test func theSnapshotAsValues() async {
        await #expect(processExitsWith: .success) { theSnapshotAsValuesBody() }
    }
}

private func theReportNamesTheForgottenPromiseBody() {
    FuturesDiagnostics.tracksPendingFutures = true
    let first = #line + 1
    let promise = Promise<String, any Error>()
    let screen = promise.future
        .map(immediateExecutionContext) { $0.uppercased() }
        .flatMap(immediateExecutionContext) { theme in drawScreen(theme) }
    print(FuturesDiagnostics.pendingFuturesReport())
    // prints (each entry's "waits for" on a line of its own here):
    // 3 pending futures in 1 chain
    // Promise at App/Settings.swift:2, pending for 12.5 s,
    //     waits for whoever completes it
    //   map at App/Settings.swift:4, 12.5 s,
    //     waits for Promise at App/Settings.swift:2
    //   flatMap at App/Settings.swift:5, 12.5 s,
    //     waits for map at App/Settings.swift:4
    let report = FuturesDiagnostics.pendingFuturesReport()
    let here = "\(#fileID)"
    precondition(report.hasPrefix("3 pending futures in 1 chain\nPromise at \(here):\(first), pending for "), report)
    precondition(report.contains("map at \(here):\(first + 2), "), report)
    precondition(report.contains("flatMap at \(here):\(first + 3), "), report)
    withExtendedLifetime(screen) {}
}

private func theSnapshotAsValuesBody() {
    FuturesDiagnostics.tracksPendingFutures = true
    precondition(FuturesDiagnostics.tracksPendingFutures)
    let promise = Promise<String, any Error>()
    let screen = promise.future
        .map(immediateExecutionContext) { $0.uppercased() }
        .flatMap(immediateExecutionContext) { theme in drawScreen(theme) }
    for chain in FuturesDiagnostics.pendingFutures() {
        // Promise at …:1 … ["map", "flatMap"]
        print(chain.site, chain.age, chain.dependents.map(\.site.name))
    }
    let chains = FuturesDiagnostics.pendingFutures()
    precondition(chains.count == 1 && chains[0].dependents.map(\.site.name) == ["map", "flatMap"])
    withExtendedLifetime(screen) {}
}
