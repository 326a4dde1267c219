#if Combine
    import Futures
    import FuturesCombine
    import Testing

    #if canImport(Combine)
        import Combine
    #else
        import OpenCombine
    #endif

    private struct Boom: Error, Equatable {}

    /// Collects what a publisher emits (single-threaded use in these tests).
    private final class Sink<Value, Failure: Error> {
        var values: [Value] = []
        var completion: Subscribers.Completion<Failure>?
        var cancellable: AnyCancellable?
    }

    @Suite("FuturesCombine: Future ⇄ Publisher")
    struct FuturesCombineTests {
        @Test func aSucceededFuturePublishesItsValueThenFinishes() {
            let sink = Sink<Int, Never>()
            sink.cancellable = Future<Int, Never>(value: 5).publisher.sink(
                receiveCompletion: { sink.completion = $0 },
                receiveValue: { sink.values.append($0) }
            )
            #expect(sink.values == [5])
            if case .finished = sink.completion {} else { Issue.record("expected .finished") }
        }

        @Test func aFailedFuturePublishesItsFailure() {
            let sink = Sink<Int, Boom>()
            sink.cancellable = Future<Int, Boom>(error: Boom()).publisher.sink(
                receiveCompletion: { sink.completion = $0 },
                receiveValue: { sink.values.append($0) }
            )
            #expect(sink.values.isEmpty)
            if case .failure(let error) = sink.completion {
                #expect(error == Boom())
            } else {
                Issue.record("no failure")
            }
        }

        @Test func aPendingFuturePublishesWhenCompleted() {
            let promise = Promise<String, Never>()
            let sink = Sink<String, Never>()
            sink.cancellable = promise.future.publisher.sink { sink.values.append($0) }
            #expect(sink.values.isEmpty)
            promise.success("later")
            #expect(sink.values == ["later"])
        }

        @Test func aCancelledSubscriptionReceivesNothing() {
            let promise = Promise<Int, Never>()
            let sink = Sink<Int, Never>()
            sink.cancellable = promise.future.publisher.sink { sink.values.append($0) }
            sink.cancellable?.cancel()
            promise.success(1)
            #expect(sink.values.isEmpty)
        }

        @Test func firstFutureTakesTheFirstValueOfAPublisher() async throws {
            let future = [3, 4, 5].publisher.firstFuture()
            #expect(try await future.get() == 3)
        }

        @Test func firstFutureOfAnEmptyPublisherFailsWithNoSuchElement() async {
            let future = Empty<Int, Never>().firstFuture()
            await #expect(throws: FuturesError.noSuchElement) { try await future.get() }
        }

        @Test func firstFuturePassesThePublishersFailure() async {
            let future = Fail<Int, Boom>(error: Boom()).firstFuture()
            await #expect(throws: Boom.self) { try await future.get() }
        }

        @Test func cancellingTheFutureCancelsTheSubscription() async {
            let subject = PassthroughSubject<Int, Never>()
            let future = subject.firstFuture()
            future.requestCancellation()
            subject.send(1)
            await #expect(throws: FuturesError.cancelled) { try await future.get() }
        }

        @Test func aCombineFutureRoundTrips() async throws {
            let combineFuture = Combine_Future<Int, Never> { promise in promise(.success(9)) }
            #expect(try await combineFuture.firstFuture().get() == 9)
        }
    }

    #if canImport(Combine)
        private typealias Combine_Future = Combine.Future
    #else
        private typealias Combine_Future = OpenCombine.Future
    #endif

    /// Keeps the subscription it gets, so that a test can cancel it and watch it go away.
    private final class HoldingSubscriber: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never
        var subscription: (any Subscription)?
        var received: [Int] = []
        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(.unlimited)
        }
        func receive(_ input: Int) -> Subscribers.Demand {
            received.append(input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) {}
    }

    @Suite("FuturesCombine: cancelled subscriptions leave nothing behind")
    struct FuturesCombineCancellationTests {
        /// Before the fix the subscription's callback stayed in the pending future (and kept the
        /// subscription alive) until the future completed.
        @Test func cancellingASubscriptionRemovesItsCallbackFromThePendingFuture() {
            let promise = Promise<Int, Never>()
            weak var released: AnyObject?
            do {
                let subscriber = HoldingSubscriber()
                promise.future.publisher.subscribe(subscriber)
                let subscription = subscriber.subscription
                released = subscription.map { $0 as AnyObject }
                subscription?.cancel()
                subscriber.subscription = nil
            }
            #expect(released == nil, "the future no longer holds the cancelled subscription")
            promise.success(1)
        }
    }
#endif
