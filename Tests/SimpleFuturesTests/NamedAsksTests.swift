import Futures
import SimpleFutures
import Testing

// The core's rule for a shared source (GUARANTEES.md G8) through SimpleFutures' `CancelToken` forms, whose
// futures stay pending when `cancel(token)` removes them: the source is asked only while at least one
// registered consumer's ask is live and every consumer registered while it was pending has asked or was
// removed. A removed consumer's ask goes with it; an ask made through a removed registration counts for
// nothing.

/// A shared source whose cancellation handler counts the asks that reach it.
private struct Source: Sendable {
    let promise = SimpleFutures.Promise<Int>()
    let asked = Counter()

    init() {
        let asked = self.asked
        promise.future.base.onCancellationRequested { asked.increment() }
    }

    var future: SimpleFutures.Future<Int> { promise.future }
}

/// One of SimpleFutures' combinators with a `CancelToken`: a consumer that asks through its own future and is
/// removed by `source.cancel(token)`.
struct SimpleTokenForm: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable (SimpleFutures.Future<Int>, CancelToken) -> SimpleFutures.Future<Int>

    var testDescription: String { name }

    static let all: [SimpleTokenForm] = [
        SimpleTokenForm(name: "map") { source, token in
            source.map(context: ImmediateContext(), cancelToken: token) { $0 }
        },
        SimpleTokenForm(name: "flatMap") { source, token in
            source.flatMap(context: ImmediateContext(), cancelToken: token) { SimpleFutures.Future(value: $0) }
        },
        SimpleTokenForm(name: "withFilter") { source, token in
            source.withFilter(context: ImmediateContext(), cancelToken: token) { _ in true }
        },
        SimpleTokenForm(name: "andThen") { source, token in
            source.andThen(context: ImmediateContext(), cancelToken: token) { _ in }
        },
        SimpleTokenForm(name: "recover") { source, token in
            source.recover(context: ImmediateContext(), cancelToken: token) { error in throw error }
        },
        SimpleTokenForm(name: "recoverWith") { source, token in
            source.recoverWith(context: ImmediateContext(), cancelToken: token) { SimpleFutures.Future(error: $0) }
        },
        SimpleTokenForm(name: "mapError") { source, token in
            source.mapError(context: ImmediateContext(), cancelToken: token) { $0 }
        },
    ]
}

/// A consumer of the source that never asks.
struct SimpleWaiting: Sendable, CustomTestStringConvertible {
    let name: String
    /// Registers it; returns a check, to run once the source succeeded with 5, that it got that value.
    let attach: @Sendable (SimpleFutures.Future<Int>) -> @Sendable () async -> Bool

    var testDescription: String { name }

    static let all: [SimpleWaiting] = [
        SimpleWaiting(name: "onComplete") { source in
            let got = Counter()
            source.onComplete(context: ImmediateContext()) { result in if result.value == 5 { got.increment() } }
            return { got.value == 1 }
        },
        SimpleWaiting(name: "map") { source in
            let mapped = source.map(context: ImmediateContext()) { $0 }
            return { await awaitValue(of: mapped) == 5 }
        },
        SimpleWaiting(name: "consumer() of the core future") { source in
            let handle = source.base.consumer()
            return { (try? await handle.get()) == 5 }
        },
    ]
}

/// A consumer that can be removed with a `CancelToken` and never asks.
struct SimpleRemovableWaiting: Sendable, CustomTestStringConvertible {
    let name: String
    let attach: @Sendable (SimpleFutures.Future<Int>, CancelToken) -> Void

    var testDescription: String { name }

    static let all: [SimpleRemovableWaiting] = [
        SimpleRemovableWaiting(name: "onComplete(context:cancelToken:)") { source, token in
            source.onComplete(context: ImmediateContext(), cancelToken: token) { _ in }
        },
        SimpleRemovableWaiting(name: "map(context:cancelToken:), never asked") { source, token in
            _ = source.map(context: ImmediateContext(), cancelToken: token) { $0 }
        },
        SimpleRemovableWaiting(name: "flatMap to a stream, with a token") { source, token in
            _ = source.flatMap(context: ImmediateContext(), cancelToken: token) {
                SimpleFutures.FutureStream(value: $0)
            }
        },
    ]
}

@Suite("SimpleFutures: a removed consumer's ask goes with it", .hangGuard())
struct NamedAsksTests {
    @Test(arguments: SimpleTokenForm.all, SimpleWaiting.all)
    func askedThenRemovedDoesNotAskTheSourceUnderAWaitingConsumer(
        _ form: SimpleTokenForm, _ waiting: SimpleWaiting
    ) async {
        let source = Source()
        let check = waiting.attach(source.future)
        let token = CancelToken()
        let asker = form.make(source.future, token)
        asker.base.requestCancellation()  // one of two consumers asked: the other still waits
        #expect(source.asked.value == 0)
        source.future.cancel(token)  // the asker is removed: its ask goes with it
        #expect(source.asked.value == 0)
        source.promise.success(5)
        #expect(await check())
    }

    @Test(arguments: SimpleTokenForm.all, SimpleWaiting.all)
    func removedThenAskedDoesNotAskTheSource(_ form: SimpleTokenForm, _ waiting: SimpleWaiting) async {
        let source = Source()
        let check = waiting.attach(source.future)
        let token = CancelToken()
        let asker = form.make(source.future, token)
        source.future.cancel(token)  // removed first: its future stays pending
        #expect(!asker.completed)
        asker.base.requestCancellation()  // then asked, through a registration that is gone
        #expect(source.asked.value == 0)
        source.promise.success(5)
        #expect(await check())
    }

    @Test(arguments: SimpleTokenForm.all)
    func anAskTakenBackIsNotCountedWhenTheOtherConsumerAsks(_ form: SimpleTokenForm) {
        let source = Source()
        let token = CancelToken()
        let asker = form.make(source.future, token)
        let other = source.future.map(context: ImmediateContext()) { $0 }
        asker.base.requestCancellation()  // asks: `other` still waits
        source.future.cancel(token)  // removed: its ask is taken back
        #expect(source.asked.value == 0)
        other.base.requestCancellation()  // the one consumer left asks
        #expect(source.asked.value == 1)
        source.promise.success(0)
    }

    @Test(arguments: SimpleTokenForm.all)
    func anAskThroughARemovedRegistrationIsNotCountedWhenTheOtherConsumerAsks(_ form: SimpleTokenForm) {
        let source = Source()
        let token = CancelToken()
        let asker = form.make(source.future, token)
        let other = source.future.map(context: ImmediateContext()) { $0 }
        source.future.cancel(token)  // removed before it asked
        asker.base.requestCancellation()  // its ask comes afterwards and counts for nothing
        #expect(source.asked.value == 0)
        other.base.requestCancellation()  // the one consumer left asks
        #expect(source.asked.value == 1)
        source.promise.success(0)
    }

    @Test(arguments: SimpleTokenForm.all)
    func whenEveryConsumerAskedTheSourceIsAskedOnce(_ form: SimpleTokenForm) {
        let source = Source()
        let token = CancelToken()
        let asker = form.make(source.future, token)
        let other = source.future.map(context: ImmediateContext()) { $0 }
        asker.base.requestCancellation()  // the token's consumer asks first
        #expect(source.asked.value == 0)
        other.base.requestCancellation()  // then the other: every consumer asked
        #expect(source.asked.value == 1)
        source.future.cancel(token)  // a removal after the request adds nothing
        #expect(source.asked.value == 1)
        source.promise.success(0)
    }

    @Test(arguments: SimpleRemovableWaiting.all)
    func removingTheLastConsumerThatWaitsAfterTheOthersAskedAsksTheSource(_ waiting: SimpleRemovableWaiting) {
        let source = Source()
        let token = CancelToken()
        waiting.attach(source.future, token)
        let asker = source.future.map(context: ImmediateContext()) { $0 }
        asker.base.requestCancellation()  // one of two asked: the other still waits
        #expect(source.asked.value == 0)
        source.future.cancel(token)  // the one that waited is removed: every consumer left has asked
        #expect(source.asked.value == 1)
        source.promise.success(0)
    }
}
