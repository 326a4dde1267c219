import Dispatch
import Foundation
import Testing

@testable import Futures

private enum Fail: Error, Equatable {
    case one
    case two
}

private struct User: Sendable {
    let name: String
}

private final class Lines: LoggerType {
    let lines = Recorder<String>()
    func log(message: String) { lines.append(message) }
}

/// Every symbol the API design lists for the BrightFutures part (§1 futures and promises, §2 contexts,
/// §3 invalidation and `CancelToken`), called once, spelled as BrightFutures code spells it. If the
/// migration guide says "unchanged" for a name, this file is where that is checked. (BrightFutures' own
/// spellings that the core does not keep, the deprecated capitalised contexts among them, are the
/// `BrightFutures` module's, checked in `BrightFuturesTests`.)
@Suite("BrightFutures surface: every listed symbol, called once")
struct BrightFuturesSurfaceTests {
    let now = immediateExecutionContext

    @Test func creatingAFuture() async {
        #expect(Future<Int, Fail>(value: 1).value == 1)
        #expect(Future<Int, Fail>(error: .one).error == .one)
        #expect(Future<Int, Fail>(result: .success(2)).result == .success(2))
        #expect(await Future<Int, Fail>(value: 3, delay: .milliseconds(1)).result(onCompletion: now) == .success(3))
        #expect(
            await Future<Int, Fail>(error: .two, delay: .milliseconds(1)).result(onCompletion: now) == .failure(.two))
        #expect(
            await Future<Int, Fail>(result: .success(4), delay: .milliseconds(1)).result(onCompletion: now)
                == .success(4))
        let resolved = Future<Int, Fail> { complete in complete(.success(5)) }
        #expect(resolved.value == 5)
        #expect(Future(other: resolved).value == 5)
        #expect(!Future<Int, Fail>().isCompleted)
    }

    @Test func stateAndWaiting() async throws {
        let success = Future<Int, Fail>(value: 1)
        let failure = Future<Int, Fail>(error: .one)
        #expect(success.isCompleted && success.isSuccess && !success.isFailure)
        #expect(failure.isFailure && failure.value == nil && failure.error == .one && failure.result == .failure(.one))
        #expect(success.forced() == .success(1))
        #expect(Future<Int, Fail>().forced(.now() + .milliseconds(1)) == nil)
        #expect(try await success.get() == 1)
        #expect(await Future<Int, Never>(value: 2).get() == 2)
    }

    @Test func callbacks() {
        let seen = Recorder<String>()
        let future = Future<Int, Fail>(value: 1)
        let same = future.onComplete(now) { seen.append("complete \($0)") }
            .onSuccess(now) { seen.append("success \($0)") }
            .onFailure(now) { seen.append("failure \($0)") }
        #expect(same === future)
        _ = Future<Int, Fail>(error: .one).onFailure { _ in seen.append("default context") }.forced()
        let after = future.andThen(context: now) { seen.append("andThen \($0)") }
        #expect(after.value == 1)
        #expect(seen.values.prefix(2) == ["complete success(1)", "success 1"])
    }

    @Test func transforming() {
        let one = Future<Int, Fail>(value: 1)
        #expect(one.map { $0 + 1 }.forced() == .success(2))
        #expect(one.map(now, f: { $0 + 2 }).value == 3)
        #expect(one.flatMap { Future(value: $0 + 3) }.forced() == .success(4))
        #expect(one.flatMap(now, f: { Future<Int, Fail>(value: $0 + 4) }).value == 5)
        #expect(one.flatMap { Result<Int, Fail>.success($0 + 5) }.forced() == .success(6))
        #expect(one.flatMap(now, f: { Result<Int, Fail>.success($0 + 6) }).value == 7)
        let failed = Future<Int, Fail>(error: .one)
        #expect(failed.mapError { _ in Fail.two }.forced() == .failure(.two))
        #expect(failed.mapError(now, f: { _ in Fail.two }).error == .two)
        #expect(failed.recover(context: now, task: { _ in 8 }).value == 8)
        #expect(failed.recover { _ in 8 }.forced() == .success(8))
        #expect(failed.recoverWith(context: now, task: { _ in Future<Int, Never>(value: 9) }).value == 9)
        #expect(failed.recoverWith { _ in Future<Int, Fail>(value: 9) }.forced() == .success(9))
    }

    @Test func combining() async {
        let one = Future<Int, Fail>(value: 1)
        #expect(one.zip(Future(value: "a")).forced().value! == (1, "a"))
        #expect(one.filter { $0 > 1 }.error == .noSuchElement)
        #expect(one.asVoid().isSuccess)
        #expect(Future<Future<Int, Fail>, Fail>(value: one).flatten().value == 1)
        #expect((Future<any Sendable, Fail>(value: 1).forceType() as Future<Int, Fail>).value == 1)
        #expect((Future<Int, Never>(value: 1).promoteError() as Future<Int, Fail>).value == 1)
        #expect((Future<Never, Fail>(error: .one).promoteValue() as Future<String, Fail>).error == .one)
        #expect(await one.delay(.milliseconds(1)).result(onCompletion: now) == .success(1))
        #expect(await one.delay(.global(), interval: .milliseconds(1)).result(onCompletion: now) == .success(1))
        #expect(Future<User, Fail>(value: User(name: "Ada")).name.value == "Ada")
        #expect((Future<Int, Fail>(error: .one) ?? 2).forced() == .success(2))
        #expect((Future<Int, Fail>(error: .one) ?? Future<Int, Fail>(value: 3)).forced() == .success(3))
    }

    @Test func promises() {
        let promise = Promise<Int, Fail>()
        promise.success(1)
        #expect(promise.future.value == 1)
        #expect(!promise.trySuccess(2) && !promise.tryFailure(.one) && !promise.tryComplete(.success(3)))
        let failing = Promise<Int, Fail>()
        failing.failure(.one)
        let completing = Promise<Int, Fail>()
        completing.complete(.success(4))
        let following = Promise<Int, Fail>()
        following.completeWith(completing.future)
        #expect(failing.future.error == .one && following.future.value == 4)
    }

    @Test func collections() {
        let futures = [Future<Int, Fail>(value: 1), Future(value: 2), Future(value: 3)]
        #expect(futures.sequence().forced() == .success([1, 2, 3]))
        #expect(futures.fold(0, f: +).forced() == .success(6))
        #expect(futures.fold(now, zero: 10, f: +).value == 16)
        #expect([1, 2].traverse(now, f: { Future<Int, Fail>(value: $0 * 2) }).value == [2, 4])
        #expect(futures.firstCompleted().value == 1)
        #expect(futures.find { $0 > 1 }.forced().value == 2)
        #expect(futures.find(now, p: { $0 > 2 }).value == 3)
        #expect([Result<Int, Fail>.success(1), .success(2)].sequence() == .success([1, 2]))
    }

    @Test func errorsAndResultHelpers() {
        let external = CombinatorError<Fail>(external: .one)
        #expect(external == .external(.one))
        #expect([CombinatorError<Fail>.noSuchElement, .invalidationTokenInvalidated, .illegalState].count == 3)
        let result = Result<Int, Fail>(value: 1)
        #expect(result.value == 1 && Result<Int, Fail>(error: .one).error == .one)
        #expect(result.analysis(ifSuccess: { $0 + 1 }, ifFailure: { _ in 0 }) == 2)
        #expect(result.flatMap { Future<Int, Fail>(value: $0 + 2) }.value == 3)
        #expect(Result<Result<Int, Fail>, Fail>.success(.success(4)).flatten() == .success(4))
        #expect(Result<Future<Int, Fail>, Fail>.success(Future(value: 5)).flatten().value == 5)
        func unwrap<R: ResultProtocol>(_ r: R) -> R.Success? { r.result.value }
        #expect(unwrap(result) == 1)
    }

    @Test func adapters() async {
        let pair: Future<Int, Fail> = materialize { done in done(1, nil) }
        let value: Future<Int, Never> = materialize { done in done(2) }
        let errorOnly: Future<Void, Fail> = materialize { done in done(nil) }
        #expect(pair.value == 1 && value.value == 2 && errorOnly.isSuccess)
        #expect(await DispatchQueue.global().asyncValue { 3 }.get() == 3)
        #expect(
            await DispatchQueue.global().asyncResult { Result<Int, Fail>.success(4) }.result(onCompletion: now)
                == .success(4))
        #expect(await DispatchQueue.global().asyncValueAfter(.now()) { 5 }.get() == 5)
    }

    @Test func debugLogging() {
        let logger = Lines()
        _ = Future<Int, Fail>(value: 1).debug("answer", logger: logger, context: now)
        _ = Future<Int, Fail>(value: 1).debug(logger: logger, context: now)
        #expect(logger.lines.values.first == "Future answer completed")
        #expect(logger.lines.values.last?.hasSuffix("- future completed") == true)
    }

    // MARK: §2 contexts

    @Test func contexts() {
        let ran = Counter()
        let custom = ExecutionContext { task in
            ran.increment()
            task()
        }
        custom { ran.increment() }
        custom.execute { ran.increment() }
        immediateExecutionContext { ran.increment() }
        maxStackDepthExecutionContext { ran.increment() }
        let function: ExecutionContextFunction = { task in task() }
        Future<Int, Never>(value: 1).onSuccess(ExecutionContext(function)) { _ in ran.increment() }
        #expect(ran.value == 7)
        let semaphore = DispatchSemaphore(value: 1)
        let queues: [ExecutionContext] = [
            immediateOnMainExecutionContext, DispatchQueue.global().context, OperationQueue().context,
            semaphore.context, defaultContext(), QueueContext.main, QueueContext.global,
            QueueContext(queue: Queue("surface")), ImmediateContext(),
        ]
        #expect(queues.count == 9)
        let queue = Queue("surface.queue")
        #expect(
            queue.sync { 1 } == 1 && Queue.main.queue.label == DispatchQueue.main.label
                && Queue.global.queue.label == DispatchQueue.global().label)
        let delayed = DispatchSemaphore(value: 0)
        queue.async { delayed.signal() }
        delayed.wait()
        queue.delay(0.001) { delayed.signal() }
        delayed.wait()
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            #expect(defaultContext().isImmediate)
        }
    }

    // MARK: §3 invalidation and CancelToken

    @Test func invalidationAndCancelTokens() {
        let token = InvalidationToken()
        let ran = Counter()
        let promise = Promise<Int, Never>()
        promise.future.onSuccess(token.validContext) { _ in ran.increment() }
        promise.future.onSuccess(token.validContext(now)) { _ in ran.increment() }
        token.invalidate()
        token.invalidate()
        promise.success(1)
        #expect(token.isInvalid && ran.value == 0)
        #expect(token.future.error == .invalidationTokenInvalidated)

        let cancelToken = CancelToken()
        let pending = Promise<Int, any Error>()
        pending.future.onSuccess(cancelToken: cancelToken) { _ in ran.increment() }
        #expect(pending.future.cancel(cancelToken))
        pending.success(1)
        #expect(ran.value == 0)
    }
}

extension Future {
    /// The result once the future completes, without throwing (registered on `context`).
    fileprivate func result(onCompletion context: ExecutionContext) async -> Result<T, E> {
        await withUnsafeContinuation { continuation in
            onComplete(context) { continuation.resume(returning: $0) }
        }
    }
}
