import BrightFutures
import Dispatch
import Foundation
import Testing

// Code written the way BrightFutures' users write it: extensions of BrightFutures' protocols and functions
// taking its function-typed `ExecutionContext`. Each declaration below compiles only against
// BrightFutures' surface; each test checks what it does.

private enum Failure: Error, Equatable {
    case boom
    case other
}

extension AsyncType where Value: ResultProtocol {
    /// A user combinator: succeeds with the value's description, or fails as this one does. Built with
    /// `Self { complete in … }` (the resolver requirement) and `onComplete` with a BrightFutures context.
    func passedOn(_ context: @escaping ExecutionContext = immediateExecutionContext) -> Self {
        Self { complete in
            self.onComplete(context) { result in
                complete(result)
            }
        }
    }

    /// A user combinator through the extension's `map` and `Value.Error`, as BrightFutures code writes
    /// it (Swift 6 code adds `Value.Value: Sendable`; Swift 5 code need not).
    func describedValue() -> Future<String, Value.Error> where Value.Value: Sendable {
        map(immediateExecutionContext) { "\($0)" }
    }

    /// A user property over the extension's `isSuccess`/`value`.
    var succeededWithValue: Bool {
        isSuccess && value != nil
    }
}

extension AsyncType {
    /// A user extension on every `AsyncType`: `Self()` and `Self(result:)` from the protocol.
    static func pendingAndDone(_ value: Value) -> (pending: Self, done: Self) {
        (Self(), Self(result: value))
    }
}

extension Future {
    /// A user combinator on the concrete `Future` that names its types through `Value` (the future's
    /// `Result`), as BrightFutures code writes `Future<Value.Value, Value.Error>`: runs `sideEffect` when
    /// this future succeeds, then completes as it did.
    func tapped(_ sideEffect: @escaping @Sendable () -> Void) -> Future<Value.Value, Value.Error> {
        andThen(context: immediateExecutionContext) { result in
            if case .success = result { sideEffect() }
        }
    }
}

/// A user function that takes BrightFutures' function-typed context and passes it on.
private func loadDouble(
    _ value: Int,
    _ context: @escaping ExecutionContext,
    seen: Recorder<Int>
) -> Future<Int, Failure> {
    let doubled = Future<Int, Failure>(value: value).map(context) { $0 * 2 }
    doubled.onComplete(context) { result in
        if case .success(let value) = result { seen.append(value) }
    }
    return doubled
}

/// A context of the user's own: counts the tasks it runs, then runs them at once.
private func countingContext(_ counter: Counter) -> ExecutionContext {
    { task in
        counter.increment()
        task()
    }
}

@Suite("BrightFutures user code: protocol extensions and function contexts")
struct UserCodeShapesTests {
    @Test func aUserExtensionOnAsyncTypeAppliesToFuture() {
        let counter = Counter()
        let passed = Future<Int, Failure>(value: 3).passedOn(countingContext(counter))
        #expect(passed.forced() == .success(3))
        #expect(counter.value == 1)
        let failed = Future<Int, Failure>(error: .boom).passedOn()
        #expect(failed.forced() == .failure(.boom))
        #expect(Future<Int, Failure>(value: 7).describedValue().forced() == .success("7"))
        #expect(Future<Int, Failure>(value: 7).succeededWithValue)
        #expect(!Future<Int, Failure>(error: .other).succeededWithValue)
    }

    @Test func aUserExtensionOnFutureNamesItsTypesThroughValue() {
        let taps = Counter()
        let tapped: Future<Int, Failure> = Future<Int, Failure>(value: 3).tapped { taps.increment() }
        #expect(tapped.value == 3)
        let failed: Future<Int, Failure> = Future<Int, Failure>(error: .boom).tapped { taps.increment() }
        #expect(failed.error == .boom)
        #expect(taps.value == 1)
    }

    @Test func selfResolverWaitsForTheLaterCompletion() {
        let promise = Promise<Int, Failure>()
        let passed = promise.future.passedOn()
        #expect(passed.result == nil)
        promise.success(5)
        #expect(passed.forced() == .success(5))
    }

    @Test func protocolInitialisersCreatePendingAndCompletedFutures() {
        let (pending, done) = Future<Int, Failure>.pendingAndDone(.failure(.boom))
        #expect(!pending.isCompleted)
        #expect(done.error == .boom)
        let (_, async) = Async<Int>.pendingAndDone(4)
        #expect(async.result == 4)
    }

    @Test func aFunctionTakingAContextAcceptsWhatBrightFuturesUsersPass() {
        let seen = Recorder<Int>()
        #expect(loadDouble(1, immediateExecutionContext, seen: seen).forced() == .success(2))
        #expect(loadDouble(2, DispatchQueue.global().context, seen: seen).forced() == .success(4))
        #expect(loadDouble(3, maxStackDepthExecutionContext, seen: seen).forced() == .success(6))
        #expect(loadDouble(4, defaultContext(), seen: seen).forced() == .success(8))
        let queue = OperationQueue()
        #expect(loadDouble(5, queue.context, seen: seen).forced() == .success(10))
        let counter = Counter()
        #expect(loadDouble(6, countingContext(counter), seen: seen).forced() == .success(12))
        // `map` and `onComplete` each handed the user's context one task.
        #expect(counter.value == 2)
        let token = InvalidationToken()
        #expect(loadDouble(7, token.validContext(immediateExecutionContext), seen: seen).forced() == .success(14))
        let settled = DispatchSemaphore(value: 0)
        let all = Future<Int, Failure>(value: 0).onComplete(DispatchQueue.global().context) { _ in settled.signal() }
        _ = all
        settled.wait()
        queue.waitUntilAllOperationsAreFinished()
        #expect(Set(seen.values).isSuperset(of: [2, 6, 12, 14]))
    }

    @Test func anInvalidatedTokensFunctionContextSkipsTheCallback() {
        let token = InvalidationToken()
        let context: ExecutionContext = token.validContext(immediateExecutionContext)
        token.invalidate()
        let ran = Counter()
        Future<Int, Failure>(value: 1).onSuccess(context) { _ in ran.increment() }
        // Passed straight to a method that takes both context forms, as BrightFutures code does.
        Future<Int, Failure>(value: 1).onSuccess(token.validContext(immediateExecutionContext)) { _ in
            ran.increment()
        }
        let valid = InvalidationToken()
        Future<Int, Failure>(value: 1).onSuccess(valid.validContext(immediateExecutionContext)) { _ in
            ran.increment(by: 10)
        }
        #expect(ran.value == 10)
    }

    @Test func theContextValuesAreBrightFuturesFunctions() {
        let contexts: [ExecutionContext] = [
            immediateExecutionContext, immediateOnMainExecutionContext, maxStackDepthExecutionContext,
            DispatchQueue.main.context, DispatchSemaphore(value: 1).context, defaultContext(),
        ]
        #expect(contexts.count == 6)
        let ran = Counter()
        immediateExecutionContext { ran.increment() }
        DispatchSemaphore(value: 1).context { ran.increment() }
        #expect(ran.value == 2)
    }

    @Test func genericCodeOverAsyncTypeUsesTheExtensionsCombinators() {
        func chain<A: AsyncType>(_ source: A) -> Future<Int, Failure>
        where A.Value: ResultProtocol, A.Value.Value == Int, A.Value.Error == Failure {
            source
                .map(immediateExecutionContext) { $0 + 1 }
                .flatMap(immediateExecutionContext) { Future(value: $0 * 10) }
        }
        #expect(chain(Future<Int, Failure>(value: 1)).forced() == .success(20))
        func recovered<A: AsyncType>(_ source: A) -> Future<Int, Never>
        where A.Value: ResultProtocol, A.Value.Value == Int, A.Value.Error == Failure {
            source.recover(context: immediateExecutionContext) { _ in -1 }
        }
        #expect(recovered(Future<Int, Failure>(error: .boom)).forced() == .success(-1))
    }

    @Test func sequencesOfAsyncTypeValues() {
        func total<S: Sequence>(_ futures: S) -> Future<Int, Failure>
        where
            S.Element: AsyncType, S.Element.Value: ResultProtocol, S.Element.Value.Value == Int,
            S.Element.Value.Error == Failure
        {
            futures.fold(immediateExecutionContext, zero: 0) { $0 + $1 }
        }
        let futures = [Future<Int, Failure>(value: 1), Future(value: 2), Future(value: 3)]
        #expect(total(futures).forced() == .success(6))
        func all<S: Sequence>(_ futures: S) -> Future<[Int], Failure>
        where
            S.Element: AsyncType, S.Element.Value: ResultProtocol, S.Element.Value.Value == Int,
            S.Element.Value.Error == Failure
        {
            futures.sequence()
        }
        #expect(all(futures).forced() == .success([1, 2, 3]))
    }

    @Test func anAsyncOfAResultUnpacksItInGet() async throws {
        let succeeded = Async<Result<Int, Failure>>(result: .success(3))
        #expect(try await succeeded.get() == 3)
        let failed = Async<Result<Int, Failure>>(result: .failure(.boom))
        await #expect(throws: Failure.boom) { try await failed.get() }
        let cannotFail = Async<Result<Int, Never>>(result: .success(4))
        #expect(await cannotFail.get() == 4)
        let callback: Future<Int, Failure>.SuccessCallback = { _ in }
        Future<Int, Failure>(value: 1).onSuccess(callback: callback)
    }

    @Test func resultProtocolNamesItsErrorTypeError() {
        func errorOf<R: ResultProtocol>(_ result: R) -> R.Error? {
            result.analysis(ifSuccess: { _ in nil }, ifFailure: { $0 })
        }
        #expect(errorOf(Result<Int, Failure>.failure(.other)) == .other)
    }
}

// A service written as BrightFutures 8 code writes it: results built with `.init(value:)`,
// `.init(error:)`, `.success` and `.failure` in closures that state no type. Each compiles against
// BrightFutures 8 (where `.init` resolves to `Result`'s initializers); before the `Result`-taking
// `flatMap`s were disfavoured, the `.init` forms were ambiguous here.
private struct NameService {
    let lookups = Recorder<Int>()

    func name(of user: Future<Int, Failure>) -> Future<String, Failure> {
        user.flatMap { id in
            guard id > 0 else { return .init(error: .boom) }
            return .init(value: "user \(id)")
        }
    }

    func name(of user: Future<Int, Failure>, on context: @escaping ExecutionContext) -> Future<String, Failure> {
        user.flatMap(context) { id in
            guard id > 0 else { return .init(error: .boom) }
            return .init(value: "user \(id)")
        }
    }

    func code(of user: Future<Int, Failure>) -> Future<String, Failure> {
        user.flatMap { id in
            guard id > 0 else { return .failure(.other) }
            return .success("#\(id)")
        }
    }

    func shortName(of user: Future<Int, Failure>) -> Future<String, Failure> {
        user.flatMap { id in id > 0 ? .init(value: "u\(id)") : .init(error: .boom) }
    }

    func idOrGuest(_ user: Future<Int, Failure>) -> Future<Int, Failure> {
        user.recoverWith { error in
            guard error == .other else { return .init(error: error) }
            return .init(value: 0)
        }
    }

    func idOrGuest(_ user: Future<Int, Failure>, on context: @escaping ExecutionContext) -> Future<Int, Failure> {
        user.recoverWith(context: context) { error in
            guard error == .other else { return .init(error: error) }
            return .init(value: 0)
        }
    }

    func logged(_ user: Future<Int, Failure>) -> Future<Int, Failure> {
        user.andThen(context: immediateExecutionContext) { result in
            switch result {
            case .success(let id): lookups.append(id)
            case .failure: lookups.append(-1)
            }
        }
    }

    func record(_ user: Future<Int, Failure>) {
        user.onComplete(immediateExecutionContext) { result in
            guard case .success(let id) = result else { return }
            lookups.append(id * 100)
        }
    }

    func names(of ids: [Int]) -> Future<[String], Failure> {
        ids.traverse(immediateExecutionContext) { id in
            guard id > 0 else { return Future<String, Failure>(error: .boom) }
            return Future(value: "user \(id)")
        }
    }

    func total(_ users: [Future<Int, Failure>]) -> Future<Int, Failure> {
        users.fold(immediateExecutionContext, zero: 0) { sum, id in
            guard id > 0 else { return sum }
            return sum + id
        }
    }
}

extension AsyncType where Value: ResultProtocol, Value.Value == Int, Value.Error == Failure {
    /// A user combinator in a protocol extension, built with `.init` in a closure that states no type.
    fileprivate func userName() -> Future<String, Failure> {
        flatMap { id in
            guard id > 0 else { return .init(error: .boom) }
            return .init(value: "user \(id)")
        }
    }
}

@Suite("BrightFutures user code: results built with .init, .success and .failure")
struct UserCodeResultBuildingTests {
    private let service = NameService()

    @Test func flatMapWithInitValueAndInitError() {
        #expect(service.name(of: Future(value: 7)).forced() == .success("user 7"))
        #expect(service.name(of: Future(value: 0)).forced() == .failure(.boom))
        #expect(service.name(of: Future(error: .other)).forced() == .failure(.other))
        #expect(service.name(of: Future(value: 3), on: immediateExecutionContext).forced() == .success("user 3"))
        #expect(service.name(of: Future(value: -1), on: DispatchQueue.global().context).forced() == .failure(.boom))
        #expect(service.shortName(of: Future(value: 2)).forced() == .success("u2"))
        #expect(service.shortName(of: Future(value: 0)).forced() == .failure(.boom))
    }

    @Test func flatMapWithSuccessAndFailure() {
        #expect(service.code(of: Future(value: 5)).forced() == .success("#5"))
        #expect(service.code(of: Future(value: 0)).forced() == .failure(.other))
    }

    @Test func flatMapWithInitInAProtocolExtension() {
        #expect(Future<Int, Failure>(value: 4).userName().forced() == .success("user 4"))
        #expect(Future<Int, Failure>(value: 0).userName().forced() == .failure(.boom))
        let promise = Promise<Int, Failure>()
        let name = promise.future.userName()
        #expect(name.result == nil)
        promise.success(9)
        #expect(name.forced() == .success("user 9"))
    }

    @Test func recoverWithWithInitValueAndInitError() {
        #expect(service.idOrGuest(Future(error: .other)).forced() == .success(0))
        #expect(service.idOrGuest(Future(error: .boom)).forced() == .failure(.boom))
        #expect(service.idOrGuest(Future(value: 8)).forced() == .success(8))
        #expect(service.idOrGuest(Future(error: .other), on: immediateExecutionContext).forced() == .success(0))
        #expect(service.idOrGuest(Future(error: .boom), on: immediateExecutionContext).forced() == .failure(.boom))
    }

    @Test func andThenAndOnCompleteMatchSuccessAndFailure() {
        #expect(service.logged(Future(value: 6)).forced() == .success(6))
        #expect(service.logged(Future(error: .boom)).forced() == .failure(.boom))
        service.record(Future(value: 2))
        service.record(Future(error: .boom))
        #expect(service.lookups.values == [6, -1, 200])
    }

    @Test func sequenceFunctionsWithClosuresThatStateNoType() {
        #expect(service.names(of: [1, 2]).forced() == .success(["user 1", "user 2"]))
        #expect(service.names(of: [1, 0]).forced() == .failure(.boom))
        #expect(service.total([Future(value: 1), Future(value: -5), Future(value: 2)]).forced() == .success(3))
        #expect(service.total([Future(value: 1), Future(error: .other)]).forced() == .failure(.other))
    }
}
