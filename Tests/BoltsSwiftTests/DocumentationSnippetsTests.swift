import BoltsSwift
import Foundation
import Futures
import Testing

// Every ```swift block of Sources/BoltsSwift/BoltsSwift.docc, verbatim, so that the documentation shows
// code the test suite compiles and runs.

@Suite("BoltsSwift: the documentation's examples")
struct DocumentationSnippetsTests {
    @Test func moduleOverview() {
        let taskCompletionSource = TaskCompletionSource<Int>()
        let described = taskCompletionSource.task
            .continueOnSuccessWith { value in value * 2 }
            .continueWith { task in
                task.faulted ? "failed" : "got \(task.result!)"
            }
        taskCompletionSource.set(result: 21)
        described.waitUntilCompleted()
        #expect(described.result == "got 42")
    }

    @Test func whatIsTheSame() {
        let initialTask = Task(1)
        let continuationTask = initialTask.continueWith { task -> String in
            task === initialTask ? "same task" : "another task"
        }
        let pending = TaskCompletionSource<Int>()
        let whenAny = Task.whenAny(
            Task<Int>(error: CocoaError(.fileNoSuchFile)), pending.task)
        #expect(continuationTask.result == "same task")
        #expect(whenAny.completed && !whenAny.faulted)
        pending.set(result: 0)
    }

    @Test func whatIsNew() async throws {
        let task = Task(20).continueOnSuccessWith { $0 + 1 }
        let doubled = try await task.future.map { $0 * 2 }.get()
        #expect(doubled == 42)
    }
}
