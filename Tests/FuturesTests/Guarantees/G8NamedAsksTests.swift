import Clocks
import Foundation
import Testing

@testable import Futures

// G8 for consumers that can be taken off a shared source (removed): a `CancelToken` registration, a
// registration through an `InvalidationToken`'s context, a waiter that stops waiting or leaves. The source is
// asked only while at least one registered consumer's ask is live and every consumer registered while it
// was pending has asked or was removed; a removed consumer's ask goes with it, and an ask made through a
// registration that was removed counts for nothing.

/// A removable consumer as the tests drive it: its own future (a request on it is this consumer's ask) and
/// how to take it off the source.
struct GAttached: Sendable {
    let future: Future<Int, any Error>
    let remove: @Sendable () -> Void
}

/// One way to register a consumer on a source that can both ask (through the future it returns) and be
/// removed.
struct GRemovableAsker: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether its future stays pending once it was removed, so that it can still be asked afterwards
    /// (a `CancelToken` combinator fails its future with `cancelled` when it is removed).
    let staysPendingWhenRemoved: Bool
    let attach: @Sendable (Future<Int, any Error>) -> GAttached

    var testDescription: String { name }

    /// A combinator registered through an `InvalidationToken`'s context; removed by `invalidate()`.
    static func invalidation(
        _ name: String,
        _ make: @escaping @Sendable (Future<Int, any Error>, ExecutionContext) -> Future<Int, any Error>
    ) -> GRemovableAsker {
        GRemovableAsker(name: "InvalidationToken, \(name)", staysPendingWhenRemoved: true) { source in
            let token = InvalidationToken()
            return GAttached(
                future: make(source, token.validContext(immediateExecutionContext)),
                remove: { token.invalidate() })
        }
    }

    /// A combinator registered with a `CancelToken`; removed by `source.cancel(token)`.
    static func cancelToken(
        _ name: String,
        _ make: @escaping @Sendable (Future<Int, any Error>, CancelToken) -> Future<Int, any Error>
    ) -> GRemovableAsker {
        GRemovableAsker(name: "CancelToken, \(name)", staysPendingWhenRemoved: false) { source in
            let token = CancelToken()
            return GAttached(future: make(source, token), remove: { source.cancel(token) })
        }
    }

    static let invalidationForms: [GRemovableAsker] = [
        invalidation("map") { source, context in source.map(context) { $0 } },
        invalidation("flatMap") { source, context in source.flatMap(context) { Future<Int, any Error>(value: $0) } },
        invalidation("recover") { source, context in source.recover(context: context) { _ in 0 } },
        invalidation("recoverWith") { source, context in
            source.recoverWith(context: context) { Future<Int, any Error>(error: $0) }
        },
        invalidation("mapError") { source, context in source.mapError(context) { $0 } },
        invalidation("andThen") { source, context in source.andThen(context: context) { _ in } },
    ]

    static let cancelTokenForms: [GRemovableAsker] = [
        cancelToken("map(context:cancelToken:mapping:)") { source, token in
            source.map(
                context: immediateExecutionContext, cancelToken: token,
                mapping: { (value: Int) throws -> Int in value })
        },
        cancelToken("flatMap(context:cancelToken:mapping:)") { source, token in
            source.flatMap(
                context: immediateExecutionContext, cancelToken: token,
                mapping: { (value: Int) throws -> Future<Int, any Error> in Future(value: value) })
        },
        cancelToken("withFilter(context:cancelToken:filter:)") { source, token in
            source.withFilter(context: immediateExecutionContext, cancelToken: token, filter: { _ in true })
        },
        cancelToken("andThen(context:cancelToken:completion:)") { source, token in
            source.andThen(context: immediateExecutionContext, cancelToken: token, completion: { _ in })
        },
        cancelToken("recover(context:cancelToken:recovery:)") { source, token in
            source.recover(
                context: immediateExecutionContext, cancelToken: token,
                recovery: { (error: any Error) throws -> Int in throw error })
        },
        cancelToken("recoverWith(context:cancelToken:recovery:)") { source, token in
            source.recoverWith(
                context: immediateExecutionContext, cancelToken: token,
                recovery: { (error: any Error) throws -> Future<Int, any Error> in Future(error: error) })
        },
        cancelToken("mapError(context:cancelToken:mapping:)") { source, token in
            source.mapError(context: immediateExecutionContext, cancelToken: token, mapping: { $0 })
        },
    ]

    static let all = invalidationForms + cancelTokenForms
    static let stayingPending = all.filter(\.staysPendingWhenRemoved)
}

/// A consumer that never asks, registered on the source before the removable one.
struct GWaitingConsumer: Sendable, CustomTestStringConvertible {
    let name: String
    /// Registers it on `source`; returns a check, to run once the source succeeded with 5, that it got
    /// that value.
    let attach: @Sendable (Future<Int, any Error>) async -> @Sendable () async -> Bool

    var testDescription: String { name }

    static let all: [GWaitingConsumer] = [
        GWaitingConsumer(name: "plain callback") { source in
            let got = LockedBox<Int?>(nil)
            source.onComplete(immediateExecutionContext) { result in got.value = try? result.get() }
            return { got.value == 5 }
        },
        GWaitingConsumer(name: "map") { source in
            let mapped = source.map(immediateExecutionContext) { $0 }
            return { (try? await mapped.get()) == 5 }
        },
        GWaitingConsumer(name: "consumer() handle") { source in
            let handle = source.consumer()
            return { (try? await handle.get()) == 5 }
        },
        GWaitingConsumer(name: "ConcurrencyLimiter item") { source in
            let limiter = ConcurrencyLimiter(maxConcurrent: 1)
            let item = limiter.submit { source }
            return {
                let value = try? await item.get()
                return withExtendedLifetime(limiter) { value == 5 }
            }
        },
        GWaitingConsumer(name: "started Deferred") { source in
            let run = Deferred<Int, any Error>(starting: { source }).map { $0 }.run()
            return { (try? await run.get()) == 5 }
        },
        GWaitingConsumer(name: "waiter (get())") { source in
            let before = gEntries(source).live
            let task = Task { try await source.get() }
            let registered = await gEventually { gEntries(source).live > before }
            #expect(registered, "the waiter did not register")
            return { (try? await task.value) == 5 }
        },
    ]
}

/// A consumer that can be removed and never asks: it only waits.
struct GRemovableWaiting: Sendable, CustomTestStringConvertible {
    let name: String
    /// Registers it on `source`; returns how to remove it.
    let attach: @Sendable (Future<Int, any Error>) async -> @Sendable () async -> Void

    var testDescription: String { name }

    static let all: [GRemovableWaiting] = [
        GRemovableWaiting(name: "onComplete(context:cancelToken:)") { source in
            let token = CancelToken()
            source.onComplete(context: immediateExecutionContext, cancelToken: token) { _ in }
            return { source.cancel(token) }
        },
        GRemovableWaiting(name: "onComplete through an InvalidationToken's context") { source in
            let token = InvalidationToken()
            source.onComplete(token.validContext(immediateExecutionContext)) { _ in }
            return { token.invalidate() }
        },
        GRemovableWaiting(name: "map(context:cancelToken:mapping:), never asked") { source in
            let token = CancelToken()
            _ = source.map(context: immediateExecutionContext, cancelToken: token, mapping: { (value: Int) in value })
            return { source.cancel(token) }
        },
        GRemovableWaiting(name: "map through an InvalidationToken's context, never asked") { source in
            let token = InvalidationToken()
            _ = source.map(token.validContext(immediateExecutionContext)) { $0 }
            return { token.invalidate() }
        },
        GRemovableWaiting(name: "flatMap to a stream with a CancelToken") { source in
            let token = CancelToken()
            _ = source.flatMap(context: immediateExecutionContext, cancelToken: token) { FutureStream<Int>(value: $0) }
            return { source.cancel(token) }
        },
        GRemovableWaiting(name: "onSuccess(context:cancelToken:)") { source in
            let token = CancelToken()
            source.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in }
            return { source.cancel(token) }
        },
        GRemovableWaiting(name: "recoverWith to a stream with a CancelToken") { source in
            let token = CancelToken()
            _ = source.recoverWith(context: immediateExecutionContext, cancelToken: token) { _ in
                FutureStream<Int>(value: 0)
            }
            return { source.cancel(token) }
        },
        GRemovableWaiting(name: "waiter, get(onTaskCancellation: .stopWaiting)") { source in
            let before = gEntries(source).live
            let task = Task { try await source.get(onTaskCancellation: .stopWaiting) }
            let registered = await gEventually { gEntries(source).live > before }
            #expect(registered, "the waiter did not register")
            return {
                task.cancel()
                _ = await task.result
            }
        },
    ]
}

/// A consumer that asks and cannot be removed.
struct GPlainAsker: Sendable, CustomTestStringConvertible {
    let name: String
    /// Registers it on `source`; a request on the returned future is its ask.
    let attach: @Sendable (Future<Int, any Error>) -> Future<Int, any Error>

    var testDescription: String { name }

    static let all: [GPlainAsker] = [
        GPlainAsker(name: "consumer() handle") { $0.consumer() },
        GPlainAsker(name: "map") { $0.map(immediateExecutionContext) { $0 } },
        GPlainAsker(name: "ConcurrencyLimiter item") { source in
            ConcurrencyLimiter(maxConcurrent: 1).submit { source }
        },
        GPlainAsker(name: "started Deferred") { source in Deferred(starting: { source }).map { $0 }.run() },
    ]
}

extension Guarantees {
    /// G8 with named asks: every removable path, in both orders (asked then removed, removed then asked),
    /// next to every kind of consumer that waits.
    @Suite("G8 A removed consumer's ask goes with it", .hangGuard())
    struct G8NamedAsksTests {
        // MARK: - Asked, then removed: the ask goes with the consumer

        @Test(arguments: GRemovableAsker.all, GWaitingConsumer.all)
        func anAskerRemovedAfterItAskedDoesNotAskTheSourceUnderAWaitingConsumer(
            _ asker: GRemovableAsker, _ waiting: GWaitingConsumer
        ) async {
            let producer = GProducer()
            let check = await waiting.attach(producer.future)
            let removable = asker.attach(producer.future)
            removable.future.requestCancellation()  // one of two consumers asked: the other still waits
            #expect(producer.asked.value == 0)
            removable.remove()  // the asker is removed: its ask goes with it, the other one still waits
            #expect(producer.asked.value == 0)
            producer.promise.trySuccess(5)
            #expect(await check())
        }

        @Test(arguments: GRemovableAsker.all, GWaitingConsumer.all)
        func anAskerWhoseDeadlineAskedAndThatIsThenRemovedDoesNotAskTheSource(
            _ asker: GRemovableAsker, _ waiting: GWaitingConsumer
        ) async {
            let producer = GProducer()
            let check = await waiting.attach(producer.future)
            let removable = asker.attach(producer.future)
            let clock = TestClock()
            let bounded = removable.future.timeout(after: .seconds(1), clock: clock)
            await clock.advance(by: .seconds(1))
            _ = try? await bounded.get()  // the deadline asked the asker before it failed `bounded`
            #expect(removable.future.isCancellationRequested)
            #expect(producer.asked.value == 0)
            removable.remove()  // asked (by its deadline), then removed: the other consumer still waits
            #expect(producer.asked.value == 0)
            producer.promise.trySuccess(5)
            #expect(await check())
        }

        // MARK: - Removed, then asked: an ask through a removed registration counts for nothing

        @Test(arguments: GRemovableAsker.stayingPending, GWaitingConsumer.all)
        func anAskerAskedAfterItWasRemovedDoesNotAskTheSource(
            _ asker: GRemovableAsker, _ waiting: GWaitingConsumer
        ) async {
            let producer = GProducer()
            let check = await waiting.attach(producer.future)
            let removable = asker.attach(producer.future)
            removable.remove()  // removed first: its future stays pending
            #expect(!removable.future.isCompleted)
            removable.future.requestCancellation()  // then asked, through a registration that is gone
            #expect(producer.asked.value == 0)
            producer.promise.trySuccess(5)
            #expect(await check())
        }

        @Test(arguments: GRemovableAsker.stayingPending, GWaitingConsumer.all)
        func anAskerWhoseDeadlineFiresAfterItWasRemovedDoesNotAskTheSource(
            _ asker: GRemovableAsker, _ waiting: GWaitingConsumer
        ) async {
            let producer = GProducer()
            let check = await waiting.attach(producer.future)
            let removable = asker.attach(producer.future)
            let clock = TestClock()
            let bounded = removable.future.timeout(after: .seconds(1), clock: clock)
            removable.remove()  // removed first; its deadline fires afterwards and asks it
            await clock.advance(by: .seconds(1))
            _ = try? await bounded.get()
            #expect(removable.future.isCancellationRequested)
            #expect(producer.asked.value == 0)
            producer.promise.trySuccess(5)
            #expect(await check())
        }

        @Test(arguments: GWaitingConsumer.all)
        func aCancelTokenChainAskedWhileItIsCancelledDoesNotAskTheSource(_ waiting: GWaitingConsumer) async {
            let producer = GProducer()
            let check = await waiting.attach(producer.future)
            let token = CancelToken()
            let first = producer.future.map(
                context: immediateExecutionContext, cancelToken: token, mapping: { (value: Int) throws in value })
            let second = first.map(
                context: immediateExecutionContext, cancelToken: token, mapping: { (value: Int) throws in value })
            let firstWasPending = LockedBox<Bool?>(nil)
            second.onFailure(immediateExecutionContext) { _ in
                firstWasPending.value = !first.isCompleted
                first.requestCancellation()
            }
            // Removes `first` from the source, then cancels `second`, whose failure asks `first` while it is
            // still pending: an ask through a registration that is already gone.
            producer.future.cancel(token)
            #expect(firstWasPending.value == true)
            #expect(producer.asked.value == 0)
            producer.promise.trySuccess(5)
            #expect(await check())
        }

        // MARK: - The "if" direction: every consumer asked or was removed, so the source is asked, once

        @Test(arguments: GRemovableWaiting.all, GPlainAsker.all)
        func removingTheLastConsumerThatWaitsAfterTheOthersAskedAsksTheSource(
            _ waiting: GRemovableWaiting, _ asker: GPlainAsker
        ) async {
            let producer = GProducer()
            let remove = await waiting.attach(producer.future)
            let output = asker.attach(producer.future)
            output.requestCancellation()  // one of two asked: the other still waits
            #expect(producer.asked.value == 0)
            await remove()  // the one that waited is removed: every consumer left has asked
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        @Test(arguments: GRemovableAsker.all, GPlainAsker.all)
        func anAskTakenBackByARemovalIsNotCountedWhenTheOtherConsumerAsks(
            _ removableAsker: GRemovableAsker, _ asker: GPlainAsker
        ) {
            let producer = GProducer()
            let removable = removableAsker.attach(producer.future)
            let other = asker.attach(producer.future)
            removable.future.requestCancellation()  // asks: `other` still waits
            removable.remove()  // removed: its ask is taken back, `other` still waits
            #expect(producer.asked.value == 0)
            other.requestCancellation()  // the one consumer left asks
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        @Test(arguments: GRemovableAsker.stayingPending, GPlainAsker.all)
        func anAskThroughARemovedRegistrationIsNotCountedWhenTheOtherConsumerAsks(
            _ removableAsker: GRemovableAsker, _ asker: GPlainAsker
        ) {
            let producer = GProducer()
            let removable = removableAsker.attach(producer.future)
            let other = asker.attach(producer.future)
            removable.remove()  // removed before it asked
            removable.future.requestCancellation()  // its ask comes afterwards and counts for nothing
            #expect(producer.asked.value == 0)
            other.requestCancellation()  // the one consumer left asks
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        @Test(arguments: GRemovableAsker.all, GPlainAsker.all)
        func whenEveryConsumerAskedTheSourceIsAskedOnceAndALaterRemovalChangesNothing(
            _ removableAsker: GRemovableAsker, _ asker: GPlainAsker
        ) {
            let producer = GProducer()
            let removable = removableAsker.attach(producer.future)
            let other = asker.attach(producer.future)
            removable.future.requestCancellation()  // the removable one asks first
            #expect(producer.asked.value == 0)
            other.requestCancellation()  // then the other: every consumer asked
            #expect(producer.asked.value == 1)
            removable.remove()  // a removal after the request adds nothing
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        @Test(arguments: GRemovableAsker.all)
        func aConsumerRemovedWithoutAskingIsNoAsk(_ removableAsker: GRemovableAsker) {
            let producer = GProducer()
            let removable = removableAsker.attach(producer.future)
            removable.remove()  // the only consumer is removed without asking
            #expect(producer.asked.value == 0)
            let later = producer.future.consumer()
            later.requestCancellation()  // a consumer registered afterwards asks: it is the only one
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        @Test(arguments: GRemovableAsker.all, GRemovableWaiting.all)
        func anAskTakenBackLeavesNoAskWhenTheConsumerThatWaitedIsRemovedToo(
            _ removableAsker: GRemovableAsker, _ waiting: GRemovableWaiting
        ) async {
            let producer = GProducer()
            let remove = await waiting.attach(producer.future)
            let removable = removableAsker.attach(producer.future)
            removable.future.requestCancellation()  // asks while the other waits
            removable.remove()  // removed: its ask goes with it
            #expect(producer.asked.value == 0)
            await remove()  // the other is removed without asking: nobody asked, nobody is left
            #expect(producer.asked.value == 0)
            producer.finish()
        }

        @Test(arguments: GRemovableAsker.all)
        func aWaiterThatLeavesAfterAnAskerWasRemovedAsksTheSource(_ removableAsker: GRemovableAsker) async {
            let producer = GProducer()
            let before = gEntries(producer.future).live
            let waiter = Task { try await producer.future.get(onTaskCancellation: .leave) }
            #expect(await gEventually { gEntries(producer.future).live > before })
            let removable = removableAsker.attach(producer.future)
            removable.future.requestCancellation()  // asks while the waiter waits
            removable.remove()  // removed: its ask goes with it, the waiter still waits
            #expect(producer.asked.value == 0)
            waiter.cancel()  // the waiter leaves: it asks and goes, the last consumer
            _ = await waiter.result
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        // MARK: - A waiter taken out before it was registered

        /// `get(onTaskCancellation:)` can take its waiter out (the task was cancelled) before the waiter was
        /// registered; the removal must not count a consumer that was never counted.
        @Test(arguments: [false, true])
        func aWaiterTakenOutBeforeItWasRegisteredDoesNotUndercountTheConsumers(_ leaving: Bool) {
            let producer = GProducer()
            let waiting = producer.future.consumer()
            let asker = producer.future.consumer()
            asker.requestCancellation()  // one of two asked: `waiting` still waits
            let entry = RemovableEntry<Int, any Error>(.wakeUp { _ in })
            producer.future.removeEntry(entry, leaving: leaving)  // taken out before it was registered
            #expect(producer.asked.value == 0)
            producer.future.addRemovable(entry)  // then registered: a withdrawn waiter adds no consumer
            #expect(producer.asked.value == 0)
            waiting.requestCancellation()  // the last consumer asks
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        /// A registration through an `InvalidationToken` that is already invalid stores nothing: it is no
        /// consumer, and a request on its future asks the source nothing.
        @Test func aRegistrationThroughAnInvalidTokenIsNoConsumer() {
            let producer = GProducer()
            let waiting = producer.future.map(immediateExecutionContext) { $0 }
            let token = InvalidationToken()
            token.invalidate()
            let dead = producer.future.map(token.validContext(immediateExecutionContext)) { $0 }
            dead.requestCancellation()  // not a consumer: `waiting` is still the only one, and has not asked
            #expect(producer.asked.value == 0)
            waiting.requestCancellation()  // the only consumer asks
            #expect(producer.asked.value == 1)
            producer.finish()
        }
    }
}
