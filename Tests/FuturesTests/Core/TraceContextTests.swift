#if ServiceContext
    import Clocks
    import Dispatch
    import Foundation
    import Synchronization
    import InMemoryTracing
    import Testing
    import Tracing

    @testable import Futures

    /// The trace context (`ServiceContext`) travels through every chain: each closure runs with the context
    /// that was current where it was registered (submitted, subscribed, started), on whatever thread it
    /// runs and whoever completes its future. Each test has its own `InMemoryTracer`, passed explicitly
    /// (no process-wide bootstrap).
    @Suite("Trace context")
    struct TraceContextTests {
        let tracer = InMemoryTracer()
        let queue = DispatchQueue(label: "trace.work")
        let other = DispatchQueue(label: "trace.other")

        /// The finished span named `name`.
        func span(_ name: String) -> FinishedInMemorySpan? {
            tracer.finishedSpans.first { $0.operationName == name }
        }

        /// Expects the span named `child` to be a child of the span named `parent`, in the same trace.
        func expectChild(_ child: String, of parent: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let found = span(child)
            let expected = span(parent)
            #expect(found != nil, "no span \(child)", sourceLocation: sourceLocation)
            #expect(expected != nil, "no span \(parent)", sourceLocation: sourceLocation)
            #expect(
                found?.parentSpanID == expected?.spanID, "\(child) is not a child of \(parent)",
                sourceLocation: sourceLocation)
            #expect(found?.traceID == expected?.traceID, sourceLocation: sourceLocation)
        }

        /// `value` after a span named `name` (a step of a chain that records itself).
        func step<V>(_ name: String, _ value: V) -> V {
            tracer.withSpan(name) { _ in value }
        }

        /// Whether a trace context is current here.
        static var hasContext: Bool { ServiceContext.current != nil }

        // MARK: - Futures

        @Test("map, flatMap and recover on a pending future completed later from another thread", .hangGuard())
        func chainOnPendingFuture() {
            let promise = Promise<Int, any Error>()
            let done = tracer.withSpan("request") { _ in
                promise.future
                    .map(queue.context) { step("map", $0 + 1) }
                    .flatMap(other.context) { value in
                        step("flatMap", Future<Int, any Error>(error: FuturesError.cancelled))
                    }
                    .recover(context: queue.context) { _ in step("recover", 7) }
                    .map(immediateExecutionContext) { step("immediate", $0) }
            }
            DispatchQueue.global().async { promise.success(1) }
            #expect(done.forced() == .success(7))
            for name in ["map", "flatMap", "recover", "immediate"] { expectChild(name, of: "request") }
        }

        @Test("map, flatMap and recover on an already completed future, across queues", .hangGuard())
        func chainOnCompletedFuture() {
            let done = tracer.withSpan("request") { _ in
                Future<Int, any Error>(value: 1)
                    .map(queue.context) { step("map", $0 + 1) }
                    .flatMap(immediateExecutionContext) { value in
                        step("flatMap", Future<Int, any Error>(error: FuturesError.cancelled))
                    }
                    .recover(context: other.context) { _ in step("recover", 7) }
                    .map(immediateExecutionContext) { step("immediate", $0) }
            }
            #expect(done.forced() == .success(7))
            for name in ["map", "flatMap", "recover", "immediate"] { expectChild(name, of: "request") }
        }

        @Test("Callbacks, with a CancelToken and through an InvalidationToken's context", .hangGuard())
        func callbacks() {
            let promise = Promise<Int, Never>()
            let invalidation = InvalidationToken()
            let seen = (Promise<Void, Never>(), Promise<Void, Never>(), Promise<Void, Never>())
            tracer.withSpan("request") { _ in
                promise.future.onSuccess(queue.context) { _ in
                    step("onSuccess", ())
                    seen.0.success(())
                }
                promise.future.onSuccess(context: other.context, cancelToken: CancelToken()) { _ in
                    step("cancelToken", ())
                    seen.1.success(())
                }
                promise.future.onSuccess(invalidation.validContext(queue.context)) { _ in
                    step("invalidation", ())
                    seen.2.success(())
                }
            }
            other.async { promise.success(1) }
            _ = seen.0.future.forced()
            _ = seen.1.future.forced()
            _ = seen.2.future.forced()
            for name in ["onSuccess", "cancelToken", "invalidation"] { expectChild(name, of: "request") }
        }

        @Test("withSpan around an operation that returns a future nests the spans chained after it", .hangGuard())
        func nestedSpans() {
            let database = Promise<Int, any Error>()
            let stored = tracer.withSpan("request") { _ in
                Future<Int, any Error>(value: 1).flatMap(queue.context) { value in
                    tracer.withSpan("store") { _ in
                        database.future.map(other.context) { step("commit", $0 + value) }
                    }
                }
            }
            DispatchQueue.global().async { database.success(1) }
            #expect((try? stored.forced().get()) == 2)
            expectChild("store", of: "request")
            expectChild("commit", of: "store")
        }

        @Test("The library's task-local check agrees with ServiceContext.current")
        func isActiveAgreesWithCurrent() async {
            #expect(!ContextTravel.isActive)
            ServiceContext.withValue(.topLevel) {
                #expect(ContextTravel.isActive)
                ServiceContext.withValue(nil) { #expect(!ContextTravel.isActive) }
                #expect(ContextTravel.isActive)
            }
            #expect(!ContextTravel.isActive)
            let inTask = await ServiceContext.withValue(.topLevel) {
                await Task { ContextTravel.isActive }.value
            }
            #expect(inTask)
            let detached = await ServiceContext.withValue(.topLevel) {
                await Task.detached { ContextTravel.isActive }.value
            }
            #expect(!detached)
        }

        // MARK: - No leaks

        @Test("A context set after registration does not leak into the callback", .hangGuard())
        func contextAfterRegistrationDoesNotLeak() {
            let promise = Promise<Int, Never>()
            let (onQueue, inline) = tracer.withSpan("registration") { _ in
                (
                    promise.future.map(queue.context) { step("on queue", $0) },
                    promise.future.map(immediateExecutionContext) { step("inline", $0) }
                )
            }
            tracer.withSpan("completion") { _ in promise.success(1) }
            _ = onQueue.forced()
            _ = inline.forced()
            expectChild("on queue", of: "registration")
            expectChild("inline", of: "registration")
        }

        @Test("No context at registration: none in the callback, whoever completes the future", .hangGuard())
        func noContextAtRegistration() {
            let promise = Promise<Int, Never>()
            let synchronous = ExecutionContext { task in task() }
            let inline = promise.future.map(immediateExecutionContext) { _ in Self.hasContext }
            let onQueue = promise.future.map(queue.context) { _ in Self.hasContext }
            let custom = promise.future.map(synchronous) { _ in Self.hasContext }
            let parked = ParkedTasks()
            let later = ExecutionContext { task in parked.park(task) }
            let runLater = promise.future.map(later) { _ in Self.hasContext }
            let cancellable = Promise<Bool, Never>()
            promise.future.onSuccess(context: immediateExecutionContext, cancelToken: CancelToken()) { _ in
                cancellable.success(Self.hasContext)
            }
            tracer.withSpan("completer") { _ in promise.success(1) }
            #expect(inline.forced() == .success(false))
            #expect(onQueue.forced() == .success(false))
            #expect(custom.forced() == .success(false))
            #expect(cancellable.future.forced() == .success(false))
            // A context that runs its tasks later, from a thread that has another trace context.
            tracer.withSpan("runner") { _ in parked.runAll() }
            #expect(runLater.forced() == .success(false))
        }

        @Test("A chain of 1,000 steps: each runs with its registration's context, however deep", .hangGuard())
        func deepChains() {
            let traced = Promise<Int, Never>()
            var withContext = traced.future
            tracer.withSpan("registration") { _ in
                for _ in 0..<1000 {
                    withContext = withContext.map(immediateExecutionContext) { $0 + (Self.hasContext ? 1 : 0) }
                }
            }
            let plain = Promise<Int, Never>()
            var withoutContext = plain.future
            for _ in 0..<1000 {
                withoutContext = withoutContext.map(immediateExecutionContext) { $0 + (Self.hasContext ? 0 : 1) }
            }
            traced.success(0)
            tracer.withSpan("completer") { _ in plain.success(0) }
            #expect(withContext.forced() == .success(1000))
            #expect(withoutContext.forced() == .success(1000))
        }

        @Test("Work the trampoline queues runs with the context of the frame that queued it", .hangGuard())
        func queuedWork() {
            // Deep in a cascade (beyond the trampoline's frame budget) each step starts a map on a completed
            // future, which is queued to run when the outermost frame unwinds, in the completer's context.
            let plain = Promise<Int, Never>()
            var chain = plain.future
            for _ in 0..<200 {
                chain = chain.flatMap(immediateExecutionContext) { value in
                    Future<Int, Never>(value: value).map(immediateExecutionContext) { $0 + (Self.hasContext ? 0 : 1) }
                }
            }
            tracer.withSpan("completer") { _ in plain.success(0) }
            #expect(chain.forced() == .success(200))
        }

        @Test("A timer runs its body with the context of the code that set it, on every clock", .hangGuard())
        func timers() async {
            let fired = Promise<Void, Never>()
            let ticked = Promise<Void, Never>()
            let clock = TestClock()
            tracer.withSpan("request") { _ in
                ClockTimer(after: .milliseconds(1), on: ContinuousClock()) {
                    step("dispatch timer", ())
                    fired.success(())
                }
                ClockTimer(after: .seconds(1), on: clock) {
                    step("test clock timer", ())
                    ticked.success(())
                }
            }
            await fired.future.get()
            await clock.advance(by: .seconds(1))
            await ticked.future.get()
            expectChild("dispatch timer", of: "request")
            expectChild("test clock timer", of: "request")
        }

        @Test(
            "Every attempt of a retry runs in the caller's trace, after a back-off on the default clock", .hangGuard())
        func retryAttempts() async throws {
            let attempts = LockedBox(0)
            let retried = tracer.withSpan("request") { _ in
                Future<Int, any Error>.retry(3, backoff: .constant(.milliseconds(2))) {
                    let number = attempts.withValue { count -> Int in
                        count += 1
                        return count
                    }
                    return step(
                        "attempt \(number)",
                        number < 3 ? Future(error: GError.failed(number)) : Future(value: number))
                }
            }
            #expect(try await retried.get() == 3)
            for number in 1...3 { expectChild("attempt \(number)", of: "request") }
        }

        // MARK: - Hops, limiter, Deferred, streams

        @Test("Work handed to an execution context or a queue runs with the submitter's context", .hangGuard())
        func hops() {
            let executed = Promise<Void, Never>()
            let value = tracer.withSpan("request") { _ in
                queue.context.execute {
                    step("execute", ())
                    executed.success(())
                }
                return other.asyncValue { step("asyncValue", 1) }
            }
            _ = executed.future.forced()
            _ = value.forced()
            expectChild("execute", of: "request")
            expectChild("asyncValue", of: "request")
        }

        @Test("A limiter's item runs with its submitter's context, whoever starts it", .hangGuard())
        func limiterItems() {
            for context in [immediateExecutionContext, queue.context] {
                tracer.clearAll()
                let limiter = ConcurrencyLimiter(maxConcurrent: 1, startingOn: context)
                let blocker = Promise<Int, Never>()
                _ = limiter.submit { blocker.future }
                let item = tracer.withSpan("request") { _ in
                    limiter.submit { step("item", Future<Int, Never>(value: 2)) }
                }
                // The blocker's completion starts the item, on a thread with another context.
                tracer.withSpan("other request") { _ in blocker.success(1) }
                #expect(item.forced().value == 2)
                expectChild("item", of: "request")
            }
        }

        @Test("A Deferred's steps run with the context where it was started, not where it was declared", .hangGuard())
        func deferredSteps() {
            let gate = Promise<Int, Never>()
            let recipe = tracer.withSpan("declaration") { _ in
                Deferred<Int, Never> { complete in
                    gate.future.onSuccess(immediateExecutionContext) { complete(.success($0)) }
                }
                .map { step("deferred map", $0 + 1) }
                .flatMap { value in step("deferred flatMap", Deferred<Int, Never>.unit(value * 2)) }
            }
            for request in ["first request", "second request"] {
                let run = tracer.withSpan(request) { _ in recipe.run() }
                // The first execution waits for the gate, opened from another thread in another context.
                other.async { tracer.withSpan("gate") { _ in gate.success(1) } }
                #expect(run.forced() == .success(4))
                expectChild("deferred map", of: request)
                expectChild("deferred flatMap", of: request)
                tracer.clearAll()
            }
        }

        @Test("A stream's subscriber receives every element with its subscription's context", .hangGuard())
        func streamConsumers() {
            let source = StreamPromise<Int>()
            let received = (Promise<Int, Never>(), Promise<Int, Never>())
            tracer.withSpan("subscriber") { _ in
                source.stream.onSuccess(context: queue.context) { value in
                    step("on queue", ())
                    received.0.success(value)
                }
                source.stream.onSuccess(context: immediateExecutionContext) { value in
                    step("inline", ())
                    received.1.success(value)
                }
            }
            tracer.withSpan("publisher") { _ in source.success(1) }
            #expect(received.0.future.forced() == .success(1))
            #expect(received.1.future.forced() == .success(1))
            expectChild("on queue", of: "subscriber")
            expectChild("inline", of: "subscriber")
        }
    }

    /// The examples of the TraceContext article, verbatim.
    @Suite("Trace context article")
    struct TraceContextArticleTests {
        let tracer = InMemoryTracer()
        let renderQueue = DispatchQueue(label: "trace.render")

        func loadProfile(id: Int) -> Future<String, Never> {
            DispatchQueue.global().asyncValue { "Ada \(id)" }
        }

        func fetchCount() -> Future<Int, Never> {
            DispatchQueue.global().asyncValue { 41 }
        }

        func parent(of child: String) -> String? {
            let spans = tracer.finishedSpans
            let parentID = spans.first { $0.operationName == child }?.parentSpanID
            return spans.first { $0.spanID == parentID }?.operationName
        }

        @Test("A request handler's span is the parent of the spans its chain starts", .hangGuard())
        func handler() {
            let handled = tracer.withSpan("handle request") { _ in
                loadProfile(id: 42)
                    .map(renderQueue.context) { profile in
                        tracer.withSpan("render") { _ in "<h1>\(profile)</h1>" }
                    }
            }
            #expect(handled.forced() == .success("<h1>Ada 42</h1>"))
            #expect(parent(of: "render") == "handle request")
        }

        @Test("A Deferred's steps belong to the request that starts it", .hangGuard())
        func deferredBelongsToItsStart() {
            let refresh = Deferred<Int, Never>(starting: { fetchCount() })
                .map { count in tracer.withSpan("count") { _ in count + 1 } }
            let first = tracer.withSpan("first request") { _ in refresh.run() }
            #expect(first.forced() == .success(42))
            #expect(parent(of: "count") == "first request")
        }
    }

    /// Tasks an execution context keeps until ``runAll()``.
    final class ParkedTasks: Sendable {
        private let tasks = Mutex<[@Sendable () -> Void]>([])

        func park(_ task: @escaping @Sendable () -> Void) {
            tasks.withLock { $0.append(task) }
        }

        /// Runs and lets go of the parked tasks (a task holds its context, which holds this object).
        func runAll() {
            let parked = tasks.withLock { tasks in
                defer { tasks = [] }
                return tasks
            }
            for task in parked { task() }
        }
    }
#endif
