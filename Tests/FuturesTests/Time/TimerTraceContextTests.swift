#if ServiceContext
    import Clocks
    import Dispatch
    import InMemoryTracing
    import Testing
    import Tracing

    @testable import Futures

    /// Every timer of the library runs its body with the trace context (`ServiceContext`) of the code that
    /// set it, on every clock: retry attempts after a back-off, delays and deadlines belong to the request
    /// that scheduled them. Each test has its own `InMemoryTracer`, passed explicitly.
    @Suite("Trace context through timers", .hangGuard())
    struct TimerTraceContextTests {
        let tracer = InMemoryTracer()
        let other = DispatchQueue(label: "timer.trace.other")
        let tick = RecordingClock.tick

        /// The clocks a timer waits on: `ContinuousClock` (a Dispatch timer), `SuspendingClock` (a task
        /// sleeping in real time) and a virtual clock (a task sleeping until the test advances it).
        enum Clocks: String, CaseIterable, Sendable, CustomTestStringConvertible {
            case continuous
            case suspending
            case virtual

            var testDescription: String { rawValue }
        }

        /// Expects the finished span named `child` to be a child of the one named `parent`, in its trace.
        func expectChild(_ child: String, of parent: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let spans = tracer.finishedSpans
            let found = spans.first { $0.operationName == child }
            let expected = spans.first { $0.operationName == parent }
            #expect(found != nil, "no span \(child)", sourceLocation: sourceLocation)
            #expect(expected != nil, "no span \(parent)", sourceLocation: sourceLocation)
            #expect(
                found?.parentSpanID == expected?.spanID, "\(child) is not a child of \(parent)",
                sourceLocation: sourceLocation)
            #expect(found?.traceID == expected?.traceID, sourceLocation: sourceLocation)
        }

        /// Runs `operate` with the clock `kind` names (a fresh virtual one for `.virtual`), then, on the
        /// virtual clock, advances past each wait it asks for (`waits` of them) in turn.
        func onClock<R>(
            _ kind: Clocks, waits: Int,
            _ operate: (any Clock<Duration>) -> R
        ) async -> R {
            switch kind {
            case .continuous:
                return operate(ContinuousClock())
            case .suspending:
                return operate(SuspendingClock())
            case .virtual:
                let clock = RecordingClock()
                var asked = clock.waits.makeAsyncIterator()
                let result = operate(clock)
                for _ in 0..<waits {
                    guard let wait = await asked.next() else { break }
                    await clock.advance(by: wait + tick)
                }
                return result
            }
        }

        @Test(
            "Every attempt of a retry runs in the caller's trace, whatever the back-off and the clock",
            arguments: Clocks.allCases, [Duration.zero, .milliseconds(2)])
        func retryAttempts(clock kind: Clocks, backoff: Duration) async {
            let attempts = Counter()
            let retried = await onClock(kind, waits: backoff == .zero ? 0 : 2) { clock in
                tracer.withSpan("request") { _ in
                    Future<Int, any Error>.retry(3, backoff: .constant(backoff), clock: clock) {
                        let number = attempts.increment()
                        tracer.withSpan("attempt \(number)") { _ in }
                        // Each attempt ends later, from another queue in another trace: with no back-off the
                        // next attempt starts there.
                        let attempt = Promise<Int, any Error>()
                        other.async {
                            tracer.withSpan("other request") { _ in
                                if number < 3 {
                                    attempt.failure(Flaky.transient(number))
                                } else {
                                    attempt.success(number)
                                }
                            }
                        }
                        return attempt.future
                    }
                }
            }
            #expect(await retried.settledResult().value == 3)
            for number in 1...3 { expectChild("attempt \(number)", of: "request") }
        }

        @Test("A retry over work that has failed already keeps the caller's trace", arguments: Clocks.allCases)
        func retryOfCompletedAttempts(clock kind: Clocks) async {
            let attempts = Counter()
            let retried = await onClock(kind, waits: 2) { clock in
                tracer.withSpan("request") { _ in
                    Future<Int, any Error>.retry(3, backoff: .constant(.milliseconds(1)), clock: clock) {
                        let number = attempts.increment()
                        tracer.withSpan("attempt \(number)") { _ in }
                        return number < 3 ? Future(error: Flaky.transient(number)) : Future(value: number)
                    }
                }
            }
            #expect(await retried.settledResult().value == 3)
            for number in 1...3 { expectChild("attempt \(number)", of: "request") }
        }

        @Test("A deadline asks the timed-out work to stop in the caller's trace", arguments: Clocks.allCases)
        func timeoutAsksInTheCallersTrace(clock kind: Clocks) async {
            let work = Promise<Int, Never>()
            // Registered outside any trace: a cancellation handler runs in the asker's context.
            work.future.onCancellationRequested { tracer.withSpan("asked to stop") { _ in } }
            let limited = await onClock(kind, waits: 1) { clock in
                tracer.withSpan("request") { _ in work.future.timeout(after: .milliseconds(1), clock: clock) }
            }
            #expect(await limited.settledResult().error == .timedOut)
            expectChild("asked to stop", of: "request")
            work.success(0)
        }

        @Test("A delayed result and Future.after reach the caller's trace", arguments: Clocks.allCases)
        func delays(clock kind: Clocks) async {
            let source = Promise<Int, Never>()
            let (delayed, afterDelay) = await onClock(kind, waits: 2) { clock in
                let futures = tracer.withSpan("request") { _ in
                    (
                        source.future.delay(for: .milliseconds(1), clock: clock).map(immediateExecutionContext) {
                            value in
                            tracer.withSpan("delayed") { _ in value }
                        },
                        Future.after(.milliseconds(1), clock: clock).map(immediateExecutionContext) { _ in
                            tracer.withSpan("after") { _ in }
                        }
                    )
                }
                other.async { tracer.withSpan("other request") { _ in source.success(7) } }
                return futures
            }
            #expect(await delayed.get() == 7)
            await afterDelay.get()
            expectChild("delayed", of: "request")
            expectChild("after", of: "request")
        }

        @Test(
            "A scheduled cancellation runs the token's handlers in the trace that scheduled it",
            arguments: Clocks.allCases)
        func scheduledCancellation(clock kind: Clocks) async {
            let source = CancellationSource()
            let cancelled = Promise<Void, Never>()
            // Registered outside any trace: a cancellation handler runs in the canceller's context.
            source.token.onCancellationRequested {
                tracer.withSpan("cancelled") { _ in }
                cancelled.success(())
            }
            await onClock(kind, waits: 1) { clock in
                tracer.withSpan("request") { _ in source.cancel(after: .milliseconds(1), clock: clock) }
            }
            await cancelled.future.get()
            expectChild("cancelled", of: "request")
        }

        @Test("Queue.delay runs its request in the trace that scheduled it")
        func queueDelay() async {
            let ran = Promise<Void, Never>()
            tracer.withSpan("request") { _ in
                Queue(other).delay(0.001) {
                    tracer.withSpan("delayed request") { _ in }
                    ran.success(())
                }
            }
            await ran.future.get()
            expectChild("delayed request", of: "request")
        }
    }
#endif
