#if NIO
    import Futures
    import NIOCore

    extension Future where E == any Error {
        /// Creates a future that completes with the result of a SwiftNIO `EventLoopFuture`.
        ///
        /// The result is delivered from the event loop's thread, then follows this library's rules (each
        /// callback on its own context). NIO futures cannot be cancelled, so a cancellation request on the
        /// returned future has no effect on the NIO side.
        public convenience init(_ eventLoopFuture: EventLoopFuture<T>) {
            let promise = Promise<T, any Error>()
            eventLoopFuture.whenComplete { result in promise.complete(result) }
            self.init(other: promise.future)
        }
    }

    extension Future {
        /// Returns a SwiftNIO `EventLoopFuture` on `eventLoop` that completes with this future's result.
        ///
        /// The NIO promise is completed from this future's completing thread (NIO hops to its loop);
        /// NIO's callbacks then run on `eventLoop` as usual. A failure is passed as `any Error`.
        public func eventLoopFuture(on eventLoop: any EventLoop) -> EventLoopFuture<T> {
            let promise = eventLoop.makePromise(of: T.self)
            promise.completeWith(self)
            return promise.futureResult
        }
    }

    extension EventLoopPromise where Value: Sendable {
        /// Completes this NIO promise with `future`'s result once it has one.
        ///
        /// Registered on the immediate context: the NIO promise is completed on the thread that completes
        /// `future`, and NIO delivers it on its event loop.
        public func completeWith<E: Error>(_ future: Futures.Future<Value, E>) {
            future.onComplete(immediateExecutionContext) { result in
                self.completeWith(result.mapError { $0 as any Error })
            }
        }
    }

    extension EventLoopFuture where Value: Sendable {
        /// This NIO future as a `Future` with an untyped error.
        public var future: Futures.Future<Value, any Error> {
            Futures.Future(self)
        }
    }
#endif
