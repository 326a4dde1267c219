import Foundation
import Futures

struct User: Decodable, Sendable { let id: Int, name: String }
struct Post: Decodable, Sendable { let id: Int, title: String }
struct Comment: Decodable, Sendable { let id: Int, text: String }

/// The blog's story (seed 001): three nested `URLSession` callbacks — the user, then their posts, then the
/// first post's comments — become one lazy chain that runs only when asked.
func storyBlogChain(_ client: SiteClient) async -> StoryRow {
    chapter("1. The callback pyramid, as a chain (the blog's Async<T>, our Deferred)")
    let before = client.site.server.requestCount
    let clock = Stopwatch()

    let comments: Deferred<(User, Post, [Comment]), SiteError> = client.deferred("/users/1")
        .flatMap { data in Deferred(starting: { SiteClient.decode(User.self, data) }) }
        .flatMap { user in
            client.deferred("/users/\(user.id)/posts")
                .flatMap { data in Deferred(starting: { SiteClient.decode([Post].self, data) }) }
                .map { posts in (user, posts[0]) }
        }
        .flatMap { user, post in
            client.deferred("/posts/\(post.id)/comments")
                .flatMap { data in Deferred(starting: { SiteClient.decode([Comment].self, data) }) }
                .map { comments in (user, post, comments) }
        }
    say("the chain is built; requests sent so far: \(client.site.server.requestCount - before)")

    let result = await comments.run().outcome()
    switch result {
    case .success(let (user, post, comments)):
        say("ran it: \(user.name) wrote \"\(post.title)\"; \(comments.count) comments:")
        for comment in comments { say("  - \(comment.text)") }
    case .failure(let error):
        say("the chain failed: \(error)")
    }
    let requests = client.site.server.requestCount - before
    say("\(requests) requests, one after another, no nesting")
    return StoryRow(
        story: "blog chain (Deferred)", requests: requests, milliseconds: clock.milliseconds,
        outcome: result.isSuccess ? "3 levels, 1 chain" : "failed")
}

extension Future {
    /// Waits for the result without throwing.
    func outcome() async -> Result<T, E> {
        do { return .success(try await get()) } catch { return .failure(error) }
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

/// Prints a chapter heading.
func chapter(_ title: String) {
    print("\n\(title)")
    print(String(repeating: "─", count: min(title.count, 72)))
}

/// Prints one line of a story.
func say(_ line: String) {
    print("  \(line)")
}
