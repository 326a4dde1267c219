#if Tracing
    import Dispatch
    import Futures
    import FuturesTracing
    import InMemoryTracing
    import Testing
    import Tracing

    // The code of the FuturesTracing catalog, of `withFutureSpan`'s comments, and of the TraceContext
    // article's `withFutureSpan` example, verbatim: scripts/check-doc-snippets.sh fails when they drift apart.
    @Suite("Docs: FuturesTracing", .hangGuard())
    struct FuturesTracingSnippetTests {
        let tracer = InMemoryTracer()
        let renderQueue = DispatchQueue(label: "trace.render")
        let store = DraftStore()
        let draft = "hello"

        final class DraftStore: Sendable {
            func save(_ draft: String) -> Future<Int, Never> {
                DispatchQueue.global().asyncValue { draft.count }
            }
        }

        func loadProfile(id: Int) -> Future<String, Never> {
            DispatchQueue.global().asyncValue { "Ada \(id)" }
        }

        func span(_ name: String) -> FinishedInMemorySpan? {
            tracer.finishedSpans.first { $0.operationName == name }
        }

        @Test func aSpanAroundLoadingAProfile() async {
            let profile = tracer.withFutureSpan("load profile") { span in
                span.attributes["user.id"] = 42
                // the span ends when the profile has loaded (or failed)
                return loadProfile(id: 42)
            }
            #expect(await profile.get() == "Ada 42")
            #expect(span("load profile")?.attributes["user.id"]?.toSpanAttribute() == 42)
        }

        @Test func theGlobalFormWithTheCurrentTracer() async {
            await withTracer(tracer) {
                let saved = withFutureSpan("save draft") { _ in store.save(draft) }
                #expect(await saved.get() == 5)
            }
            #expect(span("save draft") != nil)
        }

        @Test("TraceContext: the request's span lasts until the page is rendered")
        func handleRequestLastsAsLongAsTheWork() async {
            let handled = tracer.withFutureSpan("handle request") { _ in
                loadProfile(id: 42)
                    .map(renderQueue.context) { profile in
                        tracer.withSpan("render") { _ in "<h1>\(profile)</h1>" }
                    }
            }
            #expect(await handled.get() == "<h1>Ada 42</h1>")
            let request = span("handle request")
            let render = span("render")
            #expect(render?.parentSpanID == request?.spanID)
            // The parent ended after its child: it lasted as long as the work.
            if let request, let render {
                #expect(request.endInstant.nanosecondsSinceEpoch >= render.endInstant.nanosecondsSinceEpoch)
            }
        }
    }
#endif
