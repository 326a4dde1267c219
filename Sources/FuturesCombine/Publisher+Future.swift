#if Combine
    import Foundation
    import Futures

    #if canImport(Combine)
        import Combine
    #else
        @preconcurrency import OpenCombine
    #endif

    extension Publisher where Output: Sendable {
        /// Subscribes to this publisher and returns a future of its first value.
        ///
        /// The future succeeds with the first value (the subscription is then cancelled), fails with the
        /// publisher's failure, or fails with `FuturesError.noSuchElement` if the publisher finishes
        /// without a value. Requesting cancellation of the future cancels the subscription and fails the
        /// future with `FuturesError.cancelled`.
        public func firstFuture() -> Futures.Future<Output, any Error> {
            let promise = Promise<Output, any Error>()
            let subscriber = FirstValueSubscriber<Output, Failure>(promise: promise)
            promise.future.onCancellationRequested { subscriber.cancelSubscription(failing: true) }
            subscribe(subscriber)
            return promise.future
        }
    }

    /// Completes a promise with the first value, failure or empty completion of a publisher.
    final class FirstValueSubscriber<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
        // `@unchecked Sendable`: `subscription` is only read and written under `lock`; the promise is
        // thread-safe and completed at most once (`tryComplete`).
        private let lock = NSLock()
        private var subscription: (any Subscription)?
        private var done = false
        private let promise: Promise<Input, any Error>

        init(promise: Promise<Input, any Error>) {
            self.promise = promise
        }

        func receive(subscription: any Subscription) {
            let keep: Bool = lock.withLock {
                guard !done else { return false }
                self.subscription = subscription
                return true
            }
            if keep { subscription.request(.max(1)) } else { subscription.cancel() }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            promise.tryComplete(.success(input))
            cancelSubscription(failing: false)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            switch completion {
            case .finished: promise.tryComplete(.failure(FuturesError.noSuchElement))
            case .failure(let error): promise.tryComplete(.failure(error))
            }
            let taken: (any Subscription)? = lock.withLock {
                done = true
                defer { subscription = nil }
                return subscription
            }
            // Released here, outside the lock.
            _ = consume taken
        }

        /// Cancels the upstream subscription (once); with `failing`, fails the future as cancelled.
        func cancelSubscription(failing: Bool) {
            let subscription: (any Subscription)? = lock.withLock {
                done = true
                defer { self.subscription = nil }
                return self.subscription
            }
            subscription?.cancel()
            if failing { promise.tryComplete(.failure(FuturesError.cancelled)) }
        }
    }
#endif
