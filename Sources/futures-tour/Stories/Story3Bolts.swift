import Bolts
import Foundation
import Futures

/// Bolts' story (seed 002): delete a post's comments one after another (tasks in series), then load
/// the readers' profiles all at once (tasks in parallel), and compare the times.
func storyBolts(_ client: SiteClient) async -> StoryRow {
    chapter("3. Tasks in series and in parallel (Bolts' BFTask)")
    let before = client.site.server.requestCount
    let clock = Stopwatch()

    @Sendable func task<T: Sendable>(_ future: Future<T, SiteError>) -> BFTask<T> { BFTask(future) }
    let comments = [70, 71, 72, 73, 74]

    // In series: each delete starts when the previous task finished (chaining, no nesting).
    let series = Stopwatch()
    var deleting = BFTask<Void>(result: ())
    for id in comments {
        deleting = deleting.continueWithTask { (_: BFTask<Void>) -> BFTask<Void> in
            task(client.send("/comments/\(id)", method: "DELETE").map { _ in () })
        }
    }
    _ = try? await deleting.get()
    say(
        "in series: deleted \(comments.count) comments in \(series.milliseconds) ms (the site answers each after 40 ms)"
    )

    // In parallel: all requests start now; one task completes when all have.
    let parallel = Stopwatch()
    let profiles = comments.map { id in
        task(client.send("/profiles/\(id)").flatMap(immediateExecutionContext) { SiteClient.decode(User.self, $0) })
    }
    let all = BFTask(forCompletionOfAllTasksWithResults: profiles)
    let readers = (try? await all.get()) ?? []
    say(
        "in parallel: loaded \(readers.count) profiles in \(parallel.milliseconds) ms: \(readers.map(\.name).joined(separator: ", "))"
    )

    // A fault passes through the continuations that only handle success, to the one that handles it.
    let missing = task(client.send("/profiles/none/extra"))
        .continueOnSuccessWith { (task: BFTask<Data>) -> String in "never runs: \(task.result!.count) bytes" }
        .continueWith { (task: BFTask<String>) -> String in
            if let error = task.error { return "handled at the end: \(error)" }
            return "unexpected success"
        }
    say((try? await missing.get()) ?? "no outcome")

    let requests = client.site.server.requestCount - before
    return StoryRow(
        story: "series and parallel (BFTask)", requests: requests, milliseconds: clock.milliseconds,
        outcome: "\(readers.count) profiles at once")
}
