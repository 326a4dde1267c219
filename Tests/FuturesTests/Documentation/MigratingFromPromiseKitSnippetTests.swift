import Dispatch
import Futures
import Testing

// The swift-futures side of the code in the catalog's "Migrating from PromiseKit" guide
// (Futures.docc/MigratingFromPromiseKit.md), verbatim, over a fake user API that answers on a global queue:
// scripts/check-doc-snippets.sh fails when the two drift apart.
@Suite("Docs: Migrating from PromiseKit")
struct MigratingFromPromiseKitSnippetTests {
    struct User: Sendable, Equatable { let id: Int }
    struct Avatar: Sendable, Equatable { let owner: Int }
    struct NotFound: Error {}

    /// Answers `user(_:completion:)` PromiseKit-style (`(User?, Error?)`) from a global queue; 404 fails.
    struct FakeAPI: Sendable {
        func user(_ id: Int, completion: @escaping @Sendable (User?, (any Error)?) -> Void) {
            DispatchQueue.global().async {
                id == 404 ? completion(nil, NotFound()) : completion(User(id: id), nil)
            }
        }
    }

    /// What the chain's callbacks did, in order.
    final class Log: Sendable {
        private let events = Promise<[String], Never>()
        private let box = Recorder<String>()
        func record(_ event: String) {
            box.append(event)
            if event.hasPrefix("shown") || event.hasPrefix("reported") { events.success(box.values) }
        }
        var finished: Future<[String], Never> { events.future }
    }

    let api = FakeAPI()
    let log = Log()

    func fetchAvatar(_ user: User) -> Future<Avatar, any Error> { Future(value: Avatar(owner: user.id)) }
    func show(_ avatar: Avatar) { log.record("shown \(avatar.owner)") }
    func hideSpinner() { log.record("spinner hidden") }
    func report(_ error: any Error) { log.record("reported") }

    func fetchUser(_ id: Int) -> Future<User, any Error> {
        materialize { done in api.user(id, completion: done) }
    }

    @Test func theChainRunsItsStepsInOrder() async {
        let id = 3
        fetchUser(id).flatMap { user in
            fetchAvatar(user)
        }.andThen { _ in
            hideSpinner()
        }.onSuccess { avatar in
            show(avatar)
        }.onFailure { error in
            report(error)
        }

        #expect(await log.finished.get() == ["spinner hidden", "shown 3"])
    }

    @Test func theCombinatorsMatchWhenAndRace() async throws {
        // when(fulfilled: a, b)
        let both = fetchUser(1).zip(fetchUser(2))
        // when(fulfilled: array)
        let all = [fetchUser(1), fetchUser(2)].sequence()
        // when(resolved:)
        let settled = [fetchUser(1), fetchUser(404)].map { user in
            user.map { Result<User, any Error>.success($0) }
                .recover { .failure($0) }
        }.sequence()
        // race(fulfilled:)
        let fastest = Future.race(fetchUser(1), fetchUser(2))

        let (first, second) = try await both.get()
        #expect([first, second] == [User(id: 1), User(id: 2)])
        #expect(try await all.get() == [User(id: 1), User(id: 2)])
        let outcomes = await settled.get()
        #expect(try outcomes[0].get() == User(id: 1))
        #expect(throws: NotFound.self) { try outcomes[1].get() }
        #expect([1, 2].contains(try await fastest.get().id))
    }
}
