import Foundation
import Futures

/// BrightFutures' story (seed 000): log in, then fetch the user's posts — once with callbacks on a
/// chain, once with `await`, and once with a wrong password, where the typed error says what happened.
func storyLogIn(_ client: SiteClient) async -> StoryRow {
    chapter("2. Log in, then the posts (BrightFutures' Future and Promise)")
    let before = client.site.server.requestCount
    let clock = Stopwatch()

    @Sendable func logIn(_ user: String, _ password: String) -> Future<String, SiteError> {
        client.send("/login", method: "POST", body: "user=\(user)&password=\(password)")
            .flatMap(immediateExecutionContext) { SiteClient.decode([String: String].self, $0) }
            .flatMap(immediateExecutionContext) { json in
                json["token"].map { Future(value: $0) } ?? Future(error: .badData)
            }
    }
    @Sendable func fetchPosts(_ token: String) -> Future<[Post], SiteError> {
        client.send("/posts?token=\(token)").flatMap(immediateExecutionContext) {
            SiteClient.decode([Post].self, $0)
        }
    }

    // Callbacks on a chain: no pyramid, one place for the failure.
    let shown = Promise<Void, Never>()
    logIn("ada", "lovelace")
        .flatMap { token in fetchPosts(token) }
        .onSuccess { posts in say("callbacks: \(posts.count) posts — \(posts.map(\.title).joined(separator: "; "))") }
        .onFailure { error in say("callbacks: failed: \(error)") }
        .onComplete { _ in shown.success(()) }
    await shown.future.get()

    // The same with await: get() throws exactly SiteError.
    do {
        let posts = try await logIn("ada", "lovelace").flatMap(fetchPosts).get()
        say("await: the first post is \"\(posts[0].title)\"")
    } catch {
        say("await: failed: \(error)")
    }

    // A wrong password: the chain stops at the first failure, and recover gives a fallback.
    let attempt = logIn("ada", "babbage").flatMap(fetchPosts)
    let outcome = await attempt.outcome()
    if case .failure(let error) = outcome { say("a wrong password: \(error); the posts were never asked for") }
    let fallback = await attempt.recover { _ in [Post(id: 0, title: "(sign in to see posts)")] }.get()
    say("recover: shows \"\(fallback[0].title)\" instead")

    let requests = client.site.server.requestCount - before
    return StoryRow(
        story: "log in, then posts (Future)", requests: requests, milliseconds: clock.milliseconds,
        outcome: "typed error: \(SiteError.unauthorized)")
}
