import Bolts
import Testing

@testable import Futures

/// A block that returns a task, given to a value form (`continueWith`, `continueOnSuccessWith`), would nest
/// the task silently (`BFTask<BFTask<V>>`, not waited for): the call is reported with its site, at the call.
@Suite("BFTask: a task-returning block given to a value form is reported")
struct BFTaskNestedTaskTests {
    /// The nested-task reports raised while `body` runs, as (type, use, file, line).
    func nested(_ body: () -> Void) -> [(type: String, use: String, file: String, line: UInt)] {
        diagnostics(during: body).compactMap {
            guard case .nestedTask(let type, let use, let file, let line) = $0 else { return nil }
            return (type, use, file, line)
        }
    }

    @Test func continueWithReportsTheCallersSite() {
        let source = BFTaskCompletionSource<Int>()
        var nestedTask: BFTask<BFTask<String>>?
        var line: UInt = 0
        let found = nested {
            line = #line + 1
            nestedTask = source.task.continueWith { _ in BFTask(result: "inner") }
        }
        #expect(found.count == 1, "reported at the call, before the block runs")
        #expect(found.first?.type == "BFTask<BFTask<String>>")
        #expect(found.first?.use == "continueWithTask")
        #expect(found.first?.file == #fileID)
        #expect(found.first?.line == line)
        source.set(result: 1)
        #expect(nestedTask?.result?.result == "inner", "the call still does what it says: the task is the value")
    }

    @Test func everyValueFormReportsAndNamesItsTaskForm() {
        let task = BFTask(result: 1)
        let token = BFCancellationTokenSource().token
        let found = nested {
            _ = task.continueWith(executor: .immediate) { _ in BFTask(result: 2) }
            _ = task.continueWith(cancellationToken: token) { _ in BFTask(result: 2) }
            _ = task.continueOnSuccessWith { _ in BFTask(result: 2) }
            _ = task.continueOnSuccessWith(cancellationToken: token) { _ in BFTask(result: 2) }
        }
        #expect(
            found.map(\.use) == [
                "continueWithTask", "continueWithTask", "continueOnSuccessWithTask", "continueOnSuccessWithTask",
            ])
        #expect(Set(found.map(\.line)).count == 4, "each at its own line")
    }

    @Test func valuesAndTheTaskFormsAreNotReported() {
        let task = BFTask(result: 1)
        let found = nested {
            _ = task.continueWith { $0.result! + 1 }
            _ = task.continueWith { _ in }
            _ = task.continueOnSuccessWith { $0.result! + 1 }
            _ = task.continueWithTask { _ in BFTask(result: 2) }
            _ = task.continueOnSuccessWithTask { _ in BFTask(result: 2) }
            _ = task.continueOnErrorWith { _ in BFTask(result: 2) }
            _ = BFTask { BFTask(result: 2) }
        }
        #expect(found.isEmpty)
    }

    @Test func theReportReadsAsOneLine() {
        let diagnostic = FuturesDiagnostic.nestedTask(
            type: "BFTask<BFTask<Int>>", use: "continueWithTask", file: "App/Sync.swift", line: 12)
        #expect(
            diagnostic.description
                == "Futures: the block given at App/Sync.swift:12 returns a task, so the result is a nested BFTask<BFTask<Int>> that does not wait for it; use continueWithTask to chain"
        )
    }
}
