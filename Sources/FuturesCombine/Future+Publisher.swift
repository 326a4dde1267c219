#if Combine
    import Foundation
    import Futures

    #if canImport(Combine)
        import Combine
    #else
        @preconcurrency import OpenCombine
    #endif

    extension Futures.Future {
        /// A publisher that emits this future's value once and finishes, or fails with its error.
        ///
        /// Each subscriber gets the result when it has requested at least one value; the value is sent on
        /// the thread that completes the future (or that requests demand, if already completed). Cancelling
        /// a subscription stops delivery to it, removes its callback from the (pending) future and releases
        /// the subscriber at once; it does not cancel the future, which may have other consumers.
        public var publisher: FuturePublisher<T, E> {
            FuturePublisher(future: self)
        }
    }

    /// A Combine publisher over a `Future`: one value then `.finished`, or one failure.
    public struct FuturePublisher<T: Sendable, E: Error>: Publisher, Sendable {
        /// The future's value.
        public typealias Output = T
        /// The future's error.
        public typealias Failure = E

        /// The future this publisher observes.
        public let future: Futures.Future<T, E>

        /// Attaches `subscriber`; it receives the result once it has demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == T, S.Failure == E {
            let subscription = FutureSubscription(future: future, subscriber: AnySubscriber(subscriber))
            subscriber.receive(subscription: subscription)
        }
    }

    /// Delivers a future's result to one subscriber, once, after it has demand.
    ///
    /// Its callback is registered with a private ``CancelToken``, so ``cancel()`` takes it back from the
    /// pending future (nothing is left in the future's list) and releases the subscriber, outside the lock.
    final class FutureSubscription<T: Sendable, E: Error>: Subscription, @unchecked Sendable {
        // `@unchecked Sendable`: `subscriber` and `requested` are only touched under `lock`, and the
        // subscriber is called (or released) after the lock is released, at most once (it is taken out
        // under the lock).
        private let lock = NSLock()
        private var subscriber: AnySubscriber<T, E>?
        private var requested = false
        private let future: Futures.Future<T, E>
        private let registration = CancelToken()

        init(future: Futures.Future<T, E>, subscriber: AnySubscriber<T, E>) {
            self.future = future
            self.subscriber = subscriber
        }

        func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            let first: Bool = lock.withLock {
                defer { requested = true }
                return !requested && subscriber != nil
            }
            guard first else { return }
            future.onComplete(context: immediateExecutionContext, cancelToken: registration) { [self] result in
                deliver(result)
            }
        }

        private func deliver(_ result: Result<T, E>) {
            let taken: AnySubscriber<T, E>? = lock.withLock {
                defer { subscriber = nil }
                return subscriber
            }
            guard let subscriber = taken else { return }
            switch result {
            case .success(let value):
                _ = subscriber.receive(value)
                subscriber.receive(completion: .finished)
            case .failure(let error):
                subscriber.receive(completion: .failure(error))
            }
        }

        func cancel() {
            let taken: AnySubscriber<T, E>? = lock.withLock {
                defer { subscriber = nil }
                return subscriber
            }
            // Released here, outside the lock; then the callback is taken back from the future.
            _ = consume taken
            future.cancel(registration)
        }
    }
#endif
