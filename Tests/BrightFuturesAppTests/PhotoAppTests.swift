import BrightFutures
import FuturesTestSupport
import Testing

// Checks of the photo app (PhotoApp.swift): values delivered, errors propagated, contexts used,
// invalidated callbacks skipped. Every wait is on a future (`get()`, `forced()`) or a drained serial
// queue, never a sleep.

private let alice = User(id: 1, name: "Alice", friendIDs: [2, 3])
private let bob = User(id: 2, name: "Bob", friendIDs: [1, 3])
private let carol = User(id: 3, name: "  Carol Ann  ", friendIDs: [1])
private let blank = User(id: 4, name: "   ", friendIDs: [])

private func makeService() -> InMemoryUserService {
    InMemoryUserService(
        users: [alice, bob, carol, blank],
        photos: [
            Photo(id: 10, ownerID: 1, likes: 3), Photo(id: 11, ownerID: 1, likes: 4),
            Photo(id: 20, ownerID: 2, likes: 10),
        ])
}

/// A context of the app's own that counts the tasks it is handed, then runs them at once.
private final class CountingContext: @unchecked Sendable {
    // Safe: `count` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    var tasks: Int { lock.withLock { count } }

    var context: ExecutionContext {
        { task in
            self.lock.withLock { self.count += 1 }
            task()
        }
    }
}

@Suite("BrightFutures app: the user service", .hangGuard())
struct PhotoAppServiceTests {
    let service = makeService()

    @Test func aProfileCombinesTheUserAndTheirPhotos() async throws {
        let profile = try await service.profile(id: 1).get()
        #expect(profile.user == alice)
        #expect(profile.photos.map(\.id) == [10, 11])
        #expect(profile.totalLikes == 7)
        let counting = CountingContext()
        let onCounting = try await service.profile(id: 2, context: counting.context).get()
        #expect(onCounting.totalLikes == 10)
        // The flatMap and the map each handed the context one task.
        #expect(counting.tasks == 2)
    }

    @Test func aMissingUserFailsTheWholeChain() async {
        await #expect(throws: AppError.notFound(9)) { try await service.profile(id: 9).get() }
        service.isOffline = true
        await #expect(throws: AppError.offline) { try await service.profile(id: 1).get() }
    }

    @Test func friendsAreTraversedInOrder() async throws {
        let friends = try await service.friends(of: 1).get()
        #expect(friends.map(\.id) == [2, 3])
        let onQueue = try await service.friends(of: 2, context: DispatchQueue.global().context).get()
        #expect(onQueue.map(\.id) == [1, 3])
    }

    @Test func initValueAndInitErrorInAFlatMapThatStatesNoType() {
        #expect(service.displayName(id: 3).forced() == .success("Carol Ann"))
        #expect(service.displayName(id: 4).forced() == .failure(.invalidName("   ")))
        #expect(service.displayName(id: 8).forced() == .failure(.notFound(8)))
    }

    @Test func successInAMultiStatementFlatMap() {
        #expect(service.handle(id: 2).forced() == .success("@bob"))
        #expect(service.handle(id: 3).forced() == .success("user3"))
    }

    @Test func recoverWithTurnsOnlyNotFoundIntoTheGuest() {
        #expect(service.userOrGuest(id: 1).forced() == .success(alice))
        #expect(service.userOrGuest(id: 42).forced() == .success(.guest))
        service.isOffline = true
        #expect(service.userOrGuest(id: 1).forced() == .failure(.offline))
    }

    @Test func recoverGivesAFutureThatCannotFail() async {
        let counting = CountingContext()
        #expect(await service.nameOrUnknown(id: 2, context: counting.context).get() == "Bob")
        #expect(await service.nameOrUnknown(id: 77, context: immediateExecutionContext).get() == "unknown")
        #expect(counting.tasks == 2)
    }

    @Test func zipWaitsForBothUsers() {
        #expect(service.mutualFriends(1, 2).forced() == .success([3]))
        #expect(service.mutualFriends(1, 99).forced() == .failure(.notFound(99)))
    }

    @Test func foldAndSequenceOverManyRequests() {
        #expect(service.totalLikes(of: [1, 2, 3]).forced() == .success(17))
        #expect(service.totalLikes(of: [1, 5]).forced() == .failure(.notFound(5)))
        #expect(service.users([3, 1]).forced() == .success([carol, alice]))
        #expect(service.users([1, 6, 7]).forced() == .failure(.notFound(6)))
    }

    @Test func traverseWithARecoverWithInside() {
        let found = service.existingUsers([1, 50, 2], context: DispatchQueue.global().context).forced()
        #expect(found == .success([alice, bob]))
        service.isOffline = true
        #expect(service.existingUsers([1], context: immediateExecutionContext).forced() == .failure(.offline))
    }

    @Test func anExtensionOnAsyncTypeOfAUser() {
        #expect(service.user(id: 1).userName.forced() == .success("Alice"))
        #expect(service.user(id: 0).userName.forced() == .failure(.notFound(0)))
    }
}

@Suite("BrightFutures app: helpers, caching and legacy APIs", .hangGuard())
struct PhotoAppHelperTests {
    @Test func retryingStopsAtTheFirstErrorThatIsNotOffline() async throws {
        let service = makeService()
        service.isOffline = true
        await #expect(throws: AppError.offline) { try await retrying(3) { service.user(id: 1) }.get() }
        #expect(service.requestCount == 3)
        service.isOffline = false
        #expect(try await retrying(3) { service.user(id: 2) }.get() == bob)
        await #expect(throws: AppError.notFound(5)) {
            try await retrying(3, context: DispatchQueue.global().context) { service.user(id: 5) }.get()
        }
        #expect(service.requestCount == 5)
    }

    @Test func theCacheSharesOneRequestAndForgetsFailures() async throws {
        let backend = makeService()
        let cache = CachingUserService(backend)
        let first = cache.user(id: 1)
        let second = cache.user(id: 1)
        #expect(try await first.get() == alice)
        #expect(try await second.get() == alice)
        #expect(backend.requestCount == 1)
        backend.isOffline = true
        await #expect(throws: AppError.offline) { try await cache.user(id: 2).get() }
        backend.isOffline = false
        // The failure left the cache before the request's other callbacks ran: a new request succeeds.
        #expect(try await cache.user(id: 2).get() == bob)
        #expect(backend.requestCount == 3)
    }

    @Test func andThenLogsEachOutcomeAndPassesItOn() {
        let service = makeService()
        let log = EventLog()
        #expect(service.user(id: 1).logged(as: "alice", in: log).forced() == .success(alice))
        #expect(service.user(id: 9).logged(as: "ninth", in: log).forced() == .failure(.notFound(9)))
        #expect(log.entries == ["alice: ok", "ninth: notFound(9)"])
    }

    @Test func materializeWrapsACompletionHandler() async throws {
        let client = AvatarClient()
        let data = try await client.avatar(for: alice).get()
        #expect(String(decoding: data, as: UTF8.self) == "avatar-1")
        await #expect(throws: AppError.avatarMissing) { try await client.avatar(for: .guest).get() }
    }

    @Test func backgroundThumbnailsJoinAFailableChain() async throws {
        let service = makeService()
        let names = try await service.profile(id: 1).flatMap { thumbnails(of: $0) }.get()
        #expect(names == ["thumb-10@3", "thumb-11@4"])
    }

    @Test func whenFirstReportsTheFirstValue() async {
        let service = makeService()
        let held = Promise<User, AppError>()
        let first: User? = await withCheckedContinuation { continuation in
            whenFirst([held.future, service.user(id: 2)], context: immediateExecutionContext) { user in
                continuation.resume(returning: user)
            }
        }
        #expect(first == bob)
        held.success(alice)
    }
}

@Suite("BrightFutures app: the presenter and its invalidation token", .hangGuard())
struct PhotoAppPresenterTests {
    @Test func thePresenterShowsTheAnswersOnItsDeliveryQueue() async {
        let delivery = DispatchQueue(label: "presenter.delivery")
        let service = HeldUserService(users: [alice])
        let presenter = ProfilePresenter(service: service, deliveryContext: delivery.context)
        let shown = [presenter.show(id: 1), presenter.show(id: 5)]
        #expect(service.pendingCount == 2)
        #expect(presenter.screen.entries.isEmpty)
        service.release(on: DispatchQueue.global())
        // Callbacks on one serial queue run in the order they were registered: once this one has run,
        // the presenter's have.
        let delivered = Promise<Void, Never>()
        shown.sequence().onComplete(delivery.context) { _ in delivered.success(()) }
        await delivered.future.get()
        #expect(Set(presenter.screen.entries) == ["name: Alice", "name: Guest"])
    }

    @Test func closingThePresenterDropsTheAnswersOnTheirWay() async {
        let delivery = DispatchQueue(label: "presenter.delivery")
        let service = HeldUserService(users: [alice])
        let presenter = ProfilePresenter(service: service, deliveryContext: delivery.context)
        let shown = presenter.show(id: 1)
        presenter.close()
        service.release(on: DispatchQueue.global())
        let delivered = Promise<Void, Never>()
        shown.onComplete(delivery.context) { _ in delivered.success(()) }
        await delivered.future.get()
        #expect(shown.value == alice)
        #expect(presenter.screen.entries.isEmpty)
    }
}

@Suite("BrightFutures app: a generic repository and saved settings", .hangGuard())
struct PhotoAppRepositoryTests {
    let repository = PhotoRepository(photos: [
        1: Photo(id: 1, ownerID: 1, likes: 2), 2: Photo(id: 2, ownerID: 2, likes: 5),
    ])

    @Test func theRepositoryReadsOnItsQueue() async throws {
        #expect(try await repository.fetch(id: 2).get().likes == 5)
        await #expect(throws: AppError.notFound(3)) { try await repository.fetch(id: 3).get() }
        #expect(try await repository.fetchAll([2, 1]).get().map(\.id) == [2, 1])
        await #expect(throws: AppError.notFound(7)) {
            try await repository.fetchAll([1, 7], context: DispatchQueue.global().context).get()
        }
        let fallback = Photo(id: 0, ownerID: 0, likes: 0)
        #expect(try await repository.fetch(id: 9, orElse: fallback).get() == fallback)
    }

    @Test func savesCompleteOnceWritten() async throws {
        let settings = SettingsStore()
        try await settings.save("dark", for: "theme").get()
        #expect(settings.value(for: "theme") == "dark")
        try await settings.saveAll([("a", "1"), ("b", "2")]).get()
        #expect(settings.value(for: "a") == "1")
        #expect(settings.value(for: "b") == "2")
    }

    @Test func filterAndMapErrorRejectABlankName() async throws {
        let settings = SettingsStore()
        let service = makeService()
        try await settings.saveName(of: service.user(id: 2)).get()
        #expect(settings.value(for: "name") == "Bob")
        await #expect(throws: AppError.invalidName("")) { try await settings.saveName(of: service.user(id: 4)).get() }
        await #expect(throws: AppError.notFound(6)) { try await settings.saveName(of: service.user(id: 6)).get() }
        #expect(settings.value(for: "name") == "Bob")
    }

    @Test func onSuccessWithTheDefaultContext() async {
        let service = makeService()
        let shown = Promise<String, Never>()
        service.user(id: 1).onSuccess { user in
            shown.success(statusLine(.success(user)))
        }
        #expect(await shown.future.get() == "signed in as Alice")
        #expect(statusLine(.failure(.offline)) == "sign-in failed: offline")
    }
}
