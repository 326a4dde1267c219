#if ServiceLifecycle
    import Futures
    import FuturesServiceLifecycle
    import Synchronization
    import Testing

    @Suite("InFlightFutures", .hangGuard())
    struct InFlightFuturesTests {
        @Test func aFutureIsKeptUntilItCompletesAndTheReturnedOneFollowsIt() {
            let inFlight = InFlightFutures()
            let work = Promise<Int, Never>()
            let returned: Future<Int, any Error> = inFlight.add(work.future)
            #expect(inFlight.count == 1 && returned.result == nil)
            work.success(1)
            #expect(inFlight.count == 0)
            #expect(returned.value == 1)
            let completed = inFlight.add(Future<Int, Never>(value: 2))  // completed: not kept
            #expect(inFlight.count == 0 && completed.value == 2)
            let failing = Promise<Int, TypedFailure>()
            let typed: Future<Int, TypedFailure> = inFlight.add(failing.future, failingWith: .shutDown)
            failing.failure(.broken)
            #expect(typed.error == .broken)
        }

        @Test func aRequestOnTheReturnedFutureIsARequestOnTheAddedOne() {
            let inFlight = InFlightFutures()
            let work = StubbornWork()
            let returned = inFlight.add(work.future)
            returned.requestCancellation()
            #expect(work.asked.future.isCompleted)
            #expect(returned.result == nil && inFlight.count == 1)
            work.promise.failure(FuturesError.cancelled)
            #expect(returned.error as? FuturesError == .cancelled && inFlight.count == 0)
        }

        @Test func whenIdleCompletesAfterTheReturnedFutures() {
            let inFlight = InFlightFutures()
            let work = Promise<Int, Never>()
            let returned = inFlight.add(work.future)
            let seen = Mutex<Bool?>(nil)
            inFlight.whenIdle().onComplete(immediateExecutionContext) { _ in
                seen.withLock { $0 = returned.isCompleted }
            }
            work.success(1)
            #expect(seen.withLock { $0 } == true)
        }

        @Test func closeAsksEveryFutureInFlightAndLaterAdditionsAtOnce() {
            let inFlight = InFlightFutures()
            let first = StubbornWork()
            let second = StubbornWork()
            inFlight.add(first.future)
            inFlight.add(second.future)
            inFlight.close()
            #expect(inFlight.isClosed)
            #expect(first.asked.future.isCompleted && second.asked.future.isCompleted)
            let late = StubbornWork()
            inFlight.add(late.future)
            #expect(late.asked.future.isCompleted)
            #expect(inFlight.count == 2)  // the late one is not kept; the asked ones until they complete
            first.promise.success(1)
            second.promise.success(2)
            late.promise.success(3)
            #expect(inFlight.count == 0)
        }

        @Test func whenIdleCompletesWhenTheLastFutureCompletes() {
            let inFlight = InFlightFutures()
            #expect(inFlight.whenIdle().isCompleted)
            let one = Promise<Int, Never>()
            let two = Promise<Int, Never>()
            inFlight.add(one.future)
            inFlight.add(two.future)
            let idle = inFlight.whenIdle()
            #expect(idle === inFlight.whenIdle())  // callers meanwhile share one future
            one.success(1)
            #expect(!idle.isCompleted)
            two.success(2)
            #expect(idle.isCompleted)
        }

        @Test("A failure handled through the returned future is not reported; one nobody handles is, once")
        func theReturnedFutureStandsForTheAddedOnesFailure() {
            let reports = Mutex<[FuturesDiagnostic]>([])
            FuturesDiagnostics.withHandler({ diagnostic in reports.withLock { $0.append(diagnostic) } }) {
                let inFlight = InFlightFutures()
                do {
                    let work = Promise<Int, TypedFailure>()
                    let handled = Mutex<Bool>(false)
                    inFlight.add(work.future).onFailure(immediateExecutionContext) { _ in
                        handled.withLock { $0 = true }
                    }
                    work.failure(.broken)
                    #expect(handled.withLock { $0 })
                }
                #expect(reports.withLock { $0.isEmpty })  // the added future's failure was handled, too
                do {
                    _ = inFlight.add(Future<Int, TypedFailure>(error: .broken))
                }
                let unobserved = reports.withLock { $0 }.filter {
                    if case .unobservedFailure = $0 { true } else { false }
                }
                // Reported once, for the returned future, a `Future<Int, any Error>` (unless another suite turned
                // the process-wide policy off meanwhile).
                #expect(unobserved.count <= 1)
                if case .unobservedFailure(let type, let error, _, _, _)? = unobserved.first {
                    #expect(type == "Future<Int, Error>" && error == "broken")
                }
            }
        }

        @Test("A consumer handle of shared work withdraws only the service's interest")
        func aConsumerHandleAsksSharedWorkOnlyWhenEveryConsumerAsked() {
            let shared = StubbornWork()
            // someone else waits for the shared work too
            let other = shared.future.consumer()
            let inFlight = InFlightFutures()
            inFlight.add(shared.future.consumer())
            inFlight.close()
            #expect(!shared.asked.future.isCompleted)  // the other consumer still waits
            other.requestCancellation()
            #expect(shared.asked.future.isCompleted)
            shared.promise.success(1)
        }
    }
#endif
