#if Tracing
    import Clocks
    import Futures
    import FuturesTracing
    import InMemoryTracing
    import Testing
    import Tracing

    private struct Boom: Error {}

    /// Each test has its own `InMemoryTracer`, passed explicitly (no process-wide bootstrap), except the
    /// global form's test, which makes one current with `withTracer`.
    @Suite("Spans as long as a future", .hangGuard())
    struct FutureSpanTests {
        let tracer = InMemoryTracer()

        func finished(_ name: String) -> FinishedInMemorySpan? {
            tracer.finishedSpans.first { $0.operationName == name }
        }

        @Test("The span ends when the future completes, not when the closure returns")
        func theSpanLastsAsLongAsTheFuture() async {
            let clock = TestClock()
            let tick = tracer.withFutureSpan("wait") { _ in Future.after(.milliseconds(300), clock: clock) }
            #expect(finished("wait") == nil)  // the closure returned; the work has not ended
            #expect(tracer.activeSpans.count == 1)
            await clock.advance(by: .milliseconds(299))
            #expect(finished("wait") == nil)
            await clock.advance(by: .milliseconds(1) + .nanoseconds(1))
            await tick.get()
            let span = finished("wait")
            #expect(span != nil)  // ended before the returned future completed
            #expect(span?.attributes["futures.outcome"]?.toSpanAttribute() == "success")
            #expect(span?.status == nil)
        }

        @Test("Spans started inside, and in callbacks registered inside, are its children")
        func childSpansHaveTheParent() async throws {
            let promise = Promise<Int, any Error>()
            let done = tracer.withFutureSpan("request") { _ in
                tracer.withSpan("at once") { _ in }
                return promise.future.map(immediateExecutionContext) { value in
                    tracer.withSpan("later") { _ in value + 1 }
                }
            }
            promise.success(1)
            #expect(try await done.get() == 2)
            let parent = try #require(finished("request"))
            for name in ["at once", "later"] {
                let child = try #require(finished(name))
                #expect(child.parentSpanID == parent.spanID)
                #expect(child.traceID == parent.traceID)
            }
        }

        @Test func aFailureIsRecorded() async throws {
            let promise = Promise<Int, Boom>()
            let failed = tracer.withFutureSpan("failing", ofKind: .client) { _ in promise.future }
            promise.failure(Boom())
            await #expect(throws: Boom.self) { try await failed.get() }
            let span = try #require(finished("failing"))
            #expect(span.kind == .client)
            #expect(span.errors.count == 1 && span.errors.first?.error is Boom)
            #expect(span.status?.code == .error)
            #expect(span.attributes["futures.outcome"]?.toSpanAttribute() == "failure")
        }

        @Test("A cancellation request is recorded, reaches the work, and the span ends with it")
        func aCancellationIsRecorded() async throws {
            let clock = TestClock()
            let wait = tracer.withFutureSpan("cancelled") { _ in
                Future<Void, FuturesError>.after(.seconds(5), clock: clock, failingWith: .cancelled)
            }
            wait.requestCancellation()
            await #expect(throws: FuturesError.cancelled) { try await wait.get() }
            let span = try #require(finished("cancelled"))
            #expect(span.attributes["futures.cancellation_requested"]?.toSpanAttribute() == true)
            #expect(span.events.map(\.name) == ["futures.cancellation_requested"])
            #expect(span.attributes["futures.outcome"]?.toSpanAttribute() == "cancelled")
            #expect(span.status == SpanStatus(code: .error, message: "cancelled"))
        }

        @Test("A future a drain ended at shutdown ends its span with the shutdown")
        func aShutdownIsRecorded() async throws {
            let promise = Promise<Int, any Error>()
            let ended = tracer.withFutureSpan("left over") { _ in promise.future }
            // What `DrainingService` does to the futures of the work it gave up on.
            promise.failure(FuturesError.shutDown)
            await #expect(throws: FuturesError.shutDown) { try await ended.get() }
            let span = try #require(finished("left over"))
            #expect(span.attributes["futures.outcome"]?.toSpanAttribute() == "shutdown")
            #expect(span.status == SpanStatus(code: .error, message: "shut down"))
            #expect(span.errors.map { $0.error as? FuturesError } == [.shutDown])
        }

        @Test("Work that can never complete ends its span as abandoned")
        func abandonedWorkEndsTheSpan() {
            FuturesDiagnostics.withHandler({ _ in }) {  // the dropped promise is reported: expected here
                var promise: Promise<Int, Never>? = Promise()
                let never = tracer.withFutureSpan("abandoned") { _ in promise!.future }
                #expect(finished("abandoned") == nil)
                promise = nil  // a Never promise dropped: its future releases its callbacks
                #expect(finished("abandoned")?.attributes["futures.outcome"]?.toSpanAttribute() == "abandoned")
                #expect(finished("abandoned")?.status?.code == .error)
                #expect(!never.isCompleted)
            }
        }

        @Test("The global form uses the current tracer")
        func theGlobalFormUsesTheCurrentTracer() async throws {
            let promise = Promise<Int, Never>()
            let done = withTracer(tracer) {
                withFutureSpan("global") { span in
                    span.attributes["user.id"] = 42
                    return promise.future
                }
            }
            #expect(finished("global") == nil)
            promise.success(7)
            #expect(await done.get() == 7)
            #expect(finished("global")?.attributes["user.id"]?.toSpanAttribute() == 42)
        }
    }
#endif
