#if ServiceLifecycle
    import Dispatch
    import Futures
    import FuturesServiceLifecycle
    import Testing

    // The code of the DrainingOnShutdown article and of the types' comments, verbatim (the group's setup is
    // in DrainingServiceTests, which raises a real SIGTERM): scripts/check-doc-snippets.sh fails when they
    // drift apart.
    @Suite("Docs: Draining on shutdown", .hangGuard())
    struct DrainingOnShutdownSnippetTests {
        struct Request: Sendable { let path: String }
        struct Response: Sendable, Equatable { let body: String }

        final class DraftStore: Sendable {
            func save(_ draft: String) -> Future<Int, Never> {
                DispatchQueue.global().asyncValue { draft.count }
            }
        }

        let limiter = ConcurrencyLimiter(maxConcurrent: 8)
        let inFlight = InFlightFutures()
        let store = DraftStore()
        let draft = "hello"
        let url = "https://example.com/a"

        func fetch(_ url: String) -> Future<String, Never> {
            DispatchQueue.global().asyncValue { "page at \(url)" }
        }

        func render(_ request: Request) -> Future<Response, any Error> {
            Future(value: Response(body: request.path))
        }

        func handle(_ request: Request) -> Future<Response, any Error> {
            inFlight.add(render(request))  // forgotten when it completes
        }

        @Test func workIsSubmittedToTheLimiterOrAddedToTheRegistry() async throws {
            let page = limiter.submit { fetch(url) }
            let saved = inFlight.add(store.save(draft))
            #expect(try await page.get() == "page at https://example.com/a")
            #expect(try await saved.get() == 5)
        }

        @Test func aHandlerAddsItsWork() async throws {
            #expect(try await handle(Request(path: "/")).get() == Response(body: "/"))
            await inFlight.whenIdle().get()
            #expect(inFlight.count == 0)
        }
    }
#endif
