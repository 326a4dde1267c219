import BrightFutures

// A small photo-sharing app written the way BrightFutures clients write one: a service protocol whose
// methods return futures, protocol extensions with default implementations, execution contexts passed in
// as parameters, and closures that state no type. It imports only `BrightFutures` (which brings Dispatch
// and Foundation, as the original's framework did). This directory is compiled twice: by
// BrightFuturesAppTests in the Swift 6 language mode and by BrightFuturesAppSwift5Tests in Swift 5.

struct User: Equatable, Sendable {
    let id: Int
    let name: String
    let friendIDs: [Int]

    static let guest = User(id: 0, name: "Guest", friendIDs: [])
}

struct Photo: Equatable, Sendable {
    let id: Int
    let ownerID: Int
    let likes: Int
}

struct Profile: Equatable, Sendable {
    let user: User
    let photos: [Photo]

    var totalLikes: Int {
        photos.reduce(0) { $0 + $1.likes }
    }
}

enum AppError: Error, Equatable {
    case notFound(Int)
    case offline
    case invalidName(String)
    case avatarMissing
}

// MARK: - The service

protocol UserService: Sendable {
    func user(id: Int) -> Future<User, AppError>
    func photos(of user: User) -> Future<[Photo], AppError>
}

extension UserService {
    /// The user with their photos; both steps run on `context`.
    func profile(
        id: Int, context: @escaping ExecutionContext = DispatchQueue.global().context
    ) -> Future<Profile, AppError> {
        user(id: id).flatMap(context) { user in
            self.photos(of: user).map(context) { photos in
                Profile(user: user, photos: photos)
            }
        }
    }

    /// The user's friends, in the order of `friendIDs`.
    func friends(
        of id: Int, context: @escaping ExecutionContext = immediateExecutionContext
    ) -> Future<[User], AppError> {
        user(id: id).flatMap(context) { user in
            user.friendIDs.traverse(context) { friendID in
                self.user(id: friendID)
            }
        }
    }

    /// The user's name without surrounding blanks; a blank name fails.
    func displayName(id: Int) -> Future<String, AppError> {
        user(id: id).flatMap { user in
            let trimmed = user.name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return .init(error: .invalidName(user.name)) }
            return .init(value: trimmed)
        }
    }

    /// A handle for the user: `@name` for a short name, the id otherwise.
    func handle(id: Int) -> Future<String, AppError> {
        user(id: id).flatMap { user in
            if user.name.count <= 5 {
                return .success("@" + user.name.lowercased())
            }
            let handle = "user\(user.id)"
            return .success(handle)
        }
    }

    /// The user, or the guest when there is no such user; other errors pass through.
    func userOrGuest(id: Int) -> Future<User, AppError> {
        user(id: id).recoverWith { error in
            switch error {
            case .notFound:
                return .init(value: User.guest)
            default:
                return .init(error: error)
            }
        }
    }

    /// The user's name, or "unknown" whatever went wrong.
    func nameOrUnknown(id: Int, context: @escaping ExecutionContext) -> Future<String, Never> {
        user(id: id).map(context) { $0.name }.recover(context: context) { _ in "unknown" }
    }

    /// Friends both users have.
    func mutualFriends(_ first: Int, _ second: Int) -> Future<[Int], AppError> {
        user(id: first).zip(user(id: second)).map { one, other in
            one.friendIDs.filter { other.friendIDs.contains($0) }
        }
    }

    /// The likes of all the users' photos together.
    func totalLikes(of ids: [Int]) -> Future<Int, AppError> {
        ids.map { profile(id: $0, context: immediateExecutionContext) }.fold(0) { total, profile in
            total + profile.totalLikes
        }
    }

    /// Every user, in order, or the first failure.
    func users(_ ids: [Int]) -> Future<[User], AppError> {
        ids.map { user(id: $0) }.sequence()
    }

    /// The users that exist, skipping the missing ones.
    func existingUsers(_ ids: [Int], context: @escaping ExecutionContext) -> Future<[User], AppError> {
        ids.traverse(context) { id in
            self.user(id: id).map(context) { user in [user] }.recoverWith(context: context) { error in
                if case .notFound = error {
                    return Future(value: [])
                }
                return Future(error: error)
            }
        }.map(context) { $0.flatMap { $0 } }
    }
}

// MARK: - An implementation completing promises from a queue

/// The app's backend: answers on its own serial queue, as a network layer would.
final class InMemoryUserService: UserService, @unchecked Sendable {
    // Safe: `offline` and `requests` are only read or written while `lock` is held; the rest is constant.
    private let queue = DispatchQueue(label: "photo-app.users")
    private let users: [Int: User]
    private let photosByOwner: [Int: [Photo]]
    private let lock = NSLock()
    private var offline = false
    private var requests = 0

    init(users: [User], photos: [Photo]) {
        self.users = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) })
        self.photosByOwner = Dictionary(grouping: photos, by: \.ownerID)
    }

    var isOffline: Bool {
        get { lock.withLock { offline } }
        set { lock.withLock { offline = newValue } }
    }

    var requestCount: Int {
        lock.withLock { requests }
    }

    private func countRequest() -> Bool {
        lock.withLock {
            requests += 1
            return !offline
        }
    }

    func user(id: Int) -> Future<User, AppError> {
        let promise = Promise<User, AppError>()
        queue.async {
            guard self.countRequest() else {
                promise.failure(.offline)
                return
            }
            if let user = self.users[id] {
                promise.success(user)
            } else {
                promise.failure(.notFound(id))
            }
        }
        return promise.future
    }

    func photos(of user: User) -> Future<[Photo], AppError> {
        Future { complete in
            queue.async {
                guard self.countRequest() else { return complete(.failure(.offline)) }
                complete(.success(self.photosByOwner[user.id] ?? []))
            }
        }
    }
}

/// A service that keeps the first answer for each user: later requests share its future.
final class CachingUserService: UserService, @unchecked Sendable {
    // Safe: `cache` is only read or written while `lock` is held.
    private let upstream: any UserService
    private let lock = NSLock()
    private var cache: [Int: Future<User, AppError>] = [:]

    init(_ upstream: any UserService) {
        self.upstream = upstream
    }

    func user(id: Int) -> Future<User, AppError> {
        let (future, isNew) = lock.withLock {
            if let cached = cache[id] { return (cached, false) }
            let future = upstream.user(id: id)
            cache[id] = future
            return (future, true)
        }
        // A failure is not kept: the next request asks again. (Registered outside the lock: on a future
        // that has already failed, the callback runs at once, on this thread.)
        if isNew {
            future.onFailure(immediateExecutionContext) { _ in
                self.lock.withLock {
                    if self.cache[id] === future { self.cache[id] = nil }
                }
            }
        }
        return future
    }

    func photos(of user: User) -> Future<[Photo], AppError> {
        upstream.photos(of: user)
    }
}

/// A service whose answers wait until the test releases them, as a slow network does.
final class HeldUserService: UserService, @unchecked Sendable {
    // Safe: `held` is only read or written while `lock` is held.
    private let users: [Int: User]
    private let lock = NSLock()
    private var held: [(Int, Promise<User, AppError>)] = []

    init(users: [User]) {
        self.users = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) })
    }

    var pendingCount: Int {
        lock.withLock { held.count }
    }

    func user(id: Int) -> Future<User, AppError> {
        let promise = Promise<User, AppError>()
        lock.withLock { held.append((id, promise)) }
        return promise.future
    }

    func photos(of user: User) -> Future<[Photo], AppError> {
        Future(value: [])
    }

    /// Answers every held request from `queue`.
    func release(on queue: DispatchQueue) {
        let answered = lock.withLock {
            defer { held.removeAll() }
            return held
        }
        for (id, promise) in answered {
            queue.async {
                if let user = self.users[id] {
                    promise.success(user)
                } else {
                    promise.failure(.notFound(id))
                }
            }
        }
    }
}

// MARK: - Generic helpers

/// Runs `operation` again while it fails with `.offline`, at most `attempts` times in all.
func retrying<T>(
    _ attempts: Int,
    context: @escaping ExecutionContext = immediateExecutionContext,
    _ operation: @escaping @Sendable () -> Future<T, AppError>
) -> Future<T, AppError> {
    operation().recoverWith(context: context) { error in
        guard attempts > 1, error == .offline else { return .init(error: error) }
        return retrying(attempts - 1, context: context, operation)
    }
}

/// The first value `futures` deliver, as a plain callback on `context`.
func whenFirst<T>(
    _ futures: [Future<T, AppError>],
    context: @escaping ExecutionContext,
    _ callback: @escaping @Sendable (T?) -> Void
) {
    futures.firstCompleted().onComplete(context) { result in
        switch result {
        case .success(let value): callback(value)
        case .failure: callback(nil)
        }
    }
}

extension Future where E == AppError {
    /// Writes what happened to `log`, then passes the result on.
    func logged(as name: String, in log: EventLog, context: @escaping ExecutionContext = immediateExecutionContext)
        -> Future<T, AppError>
    {
        andThen(context: context) { result in
            switch result {
            case .success: log.append("\(name): ok")
            case .failure(let error): log.append("\(name): \(error)")
            }
        }
    }
}

extension AsyncType where Value: ResultProtocol, Value.Value == User {
    /// The user's name, for every future of a user.
    var userName: Future<String, Value.Error> {
        map(immediateExecutionContext) { $0.name }
    }
}

// MARK: - Legacy and background work

/// An avatar API from before futures: a completion handler with an optional value and an optional error.
final class AvatarClient: Sendable {
    private let queue = DispatchQueue(label: "photo-app.avatars")

    func fetchAvatar(userID: Int, completion: @escaping @Sendable (Data?, AppError?) -> Void) {
        queue.async {
            if userID > 0 {
                completion(Data("avatar-\(userID)".utf8), nil)
            } else {
                completion(nil, .avatarMissing)
            }
        }
    }

    func avatar(for user: User) -> Future<Data, AppError> {
        materialize { done in
            fetchAvatar(userID: user.id, completion: done)
        }
    }
}

/// Thumbnails are rendered in the background and cannot fail.
func thumbnail(of photo: Photo, on queue: DispatchQueue = .global()) -> Future<String, Never> {
    queue.asyncValue {
        "thumb-\(photo.id)@\(photo.likes)"
    }
}

/// The thumbnails of a user's photos.
func thumbnails(of profile: Profile) -> Future<[String], AppError> {
    profile.photos.traverse { photo in
        thumbnail(of: photo).promoteError()
    }
}

// MARK: - A presenter

/// What the app shows, in order.
final class EventLog: @unchecked Sendable {
    // Safe: `events` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var events: [String] = []

    func append(_ event: String) {
        lock.withLock { events.append(event) }
    }

    var entries: [String] {
        lock.withLock { events }
    }
}

/// Shows a profile on its delivery context; closing it drops the answers still on their way.
final class ProfilePresenter: Sendable {
    private let service: any UserService
    private let deliveryContext: ExecutionContext
    private let token = InvalidationToken()
    let screen = EventLog()

    init(service: any UserService, deliveryContext: @escaping ExecutionContext = DispatchQueue.main.context) {
        self.service = service
        self.deliveryContext = deliveryContext
    }

    /// Shows the user `id` (the guest if there is none); the returned future is the answer.
    @discardableResult
    func show(id: Int) -> Future<User, AppError> {
        service.userOrGuest(id: id)
            .onSuccess(token.validContext(deliveryContext)) { user in
                self.screen.append("name: \(user.name)")
            }
            .onFailure(token.validContext(deliveryContext)) { error in
                self.screen.append("error: \(error)")
            }
    }

    func close() {
        token.invalidate()
    }
}

// MARK: - A generic repository

/// A store of one kind of model, read by id.
protocol Repository: Sendable {
    // A future's value is `Sendable`: in the Swift 6 language mode the model must be declared so (a
    // requirement BrightFutures' `Future` did not have); Swift 5 code keeps the unconstrained declaration.
    #if swift(>=6)
        associatedtype Model: Sendable
    #else
        associatedtype Model
    #endif
    func fetch(id: Int) -> Future<Model, AppError>
}

extension Repository {
    /// Every model, in the order of `ids`.
    func fetchAll(
        _ ids: [Int], context: @escaping ExecutionContext = immediateExecutionContext
    ) -> Future<[Model], AppError> {
        ids.traverse(context) { fetch(id: $0) }
    }

    /// The model, or `fallback` when it is missing.
    func fetch(id: Int, orElse fallback: Model) -> Future<Model, AppError> {
        fetch(id: id).recoverWith { error in
            if case .notFound = error {
                return Future(value: fallback)
            }
            return Future(error: error)
        }
    }
}

/// The photos, read from a dictionary on a queue.
struct PhotoRepository: Repository {
    let photos: [Int: Photo]
    let queue = DispatchQueue(label: "photo-app.photos")

    func fetch(id: Int) -> Future<Photo, AppError> {
        queue.asyncResult {
            guard let photo = photos[id] else { return .failure(.notFound(id)) }
            return .success(photo)
        }
    }
}

// MARK: - Settings, saved through a promise

/// The app's settings, saved in the background; a save completes once it is written.
final class SettingsStore: @unchecked Sendable {
    // Safe: `saved` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var saved: [String: String] = [:]
    private let queue = DispatchQueue(label: "photo-app.settings")

    func value(for key: String) -> String? {
        lock.withLock { saved[key] }
    }

    func save(_ value: String, for key: String) -> Future<Void, AppError> {
        let promise = Promise<Void, AppError>()
        let written = queue.asyncValue {
            self.lock.withLock { self.saved[key] = value }
        }
        promise.completeWith(written.promoteError())
        return promise.future
    }

    /// Saves the user's display name, rejecting a blank one before anything is written.
    func saveName(of user: Future<User, AppError>) -> Future<Void, AppError> {
        user.filter { !$0.name.trimmingCharacters(in: .whitespaces).isEmpty }
            .mapError { error in
                switch error {
                case .noSuchElement: return AppError.invalidName("")
                case .external(let error): return error
                default: return AppError.offline
                }
            }
            .flatMap { user in self.save(user.name, for: "name") }
    }

    /// Saves every pair; completes once all are written.
    func saveAll(_ pairs: [(String, String)]) -> Future<Void, AppError> {
        pairs.map { key, value in save(value, for: key) }.sequence().asVoid()
    }
}

/// Describes an outcome as the app's status line does.
func statusLine(_ result: Result<User, AppError>) -> String {
    result.analysis(
        ifSuccess: { "signed in as \($0.name)" },
        ifFailure: { "sign-in failed: \($0)" })
}
