#if NIO
    import Futures
    import FuturesNIO
    import NIOCore
    import NIOEmbedded
    import NIOPosix
    import Testing

    private struct Boom: Error, Equatable {}

    @Suite("FuturesNIO: EventLoopFuture ⇄ Future")
    struct FuturesNIOTests {
        @Test func aSucceededEventLoopFutureBecomesASucceededFuture() async throws {
            let loop = EmbeddedEventLoop()
            let future = loop.makeSucceededFuture(41).future.map(immediateExecutionContext) { $0 + 1 }
            #expect(try await future.get() == 42)
        }

        @Test func aFailedEventLoopFutureFailsTheFuture() async {
            let loop = EmbeddedEventLoop()
            let future = Future<Int, any Error>(loop.makeFailedFuture(Boom()))
            await #expect(throws: Boom.self) { try await future.get() }
        }

        @Test func aPendingEventLoopPromiseCompletesTheFutureLater() async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let loop = group.next()
            let promise = loop.makePromise(of: String.self)
            let future = promise.futureResult.future
            #expect(!future.isCompleted)
            promise.succeed("from NIO")
            #expect(try await future.get() == "from NIO")
            try await group.shutdownGracefully()
        }

        @Test func aFutureBecomesAnEventLoopFutureOnTheGivenLoop() async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let loop = group.next()
            let promise = Promise<Int, Never>()
            let nioFuture = promise.future.eventLoopFuture(on: loop)
            #expect(nioFuture.eventLoop === loop)
            let onLoop = nioFuture.map { value in (value, loop.inEventLoop) }
            promise.success(7)
            let (value, ranOnLoop) = try await onLoop.get()
            #expect(value == 7)
            #expect(ranOnLoop)
            try await group.shutdownGracefully()
        }

        @Test func aFailedFutureFailsTheEventLoopFuture() async throws {
            let loop = EmbeddedEventLoop()
            let nioFuture = Future<Int, Boom>(error: Boom()).eventLoopFuture(on: loop)
            await #expect(throws: Boom.self) { try await nioFuture.get() }
        }
    }
#endif
