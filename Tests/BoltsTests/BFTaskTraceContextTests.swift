#if ServiceContext
    import Bolts
    import Dispatch
    import Foundation
    import InMemoryTracing
    import Testing
    import Tracing

    @testable import Futures

    /// The trace context (`ServiceContext`) travels through BFTask continuations: each block runs with the
    /// context that was current where it was added, on whatever thread it runs and whoever completes the task.
    @Suite("BFTask: trace context")
    struct BFTaskTraceContextTests {
        let tracer = InMemoryTracer()
        let queue = DispatchQueue(label: "trace.work")

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

        @Test("BFTask continuations, on a pending and on a completed task", .hangGuard())
        func taskContinuations() {
            let source = BFTaskCompletionSource<Int>()
            let (pending, completed) = tracer.withSpan("request") { _ in
                (
                    source.task.continueOnSuccessWith(executor: BFExecutor(dispatchQueue: queue)) {
                        step("pending", $0.result! + 1)
                    },
                    BFTask(result: 1).continueOnSuccessWith(executor: .default) { step("completed", $0.result! + 1) }
                )
            }
            DispatchQueue.global().async { source.set(result: 1) }
            pending.waitUntilFinished()
            completed.waitUntilFinished()
            #expect(pending.result == 2)
            #expect(completed.result == 2)
            expectChild("pending", of: "request")
            expectChild("completed", of: "request")
        }
    }
#endif
