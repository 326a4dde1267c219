import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G6. Released when done: callbacks after they ran, switched-off registrations and abandoned waiters at
    /// once, abandoned pending work entirely.
    @Suite("G6 Released when done")
    struct G6ReleaseTests {
        /// Captures of callbacks on every context are released once they ran.
        @Test(arguments: GCase.all)
        func everyCallbacksCapturesAreReleasedAfterItRan(_ testCase: GCase) {
            let subject = testCase.make()
            let queue = GQueue("g6.release")
            let ran = GCounter()
            weak var weakImmediate: GProbe?
            weak var weakQueued: GProbe?
            do {
                let immediateProbe = GProbe()
                let queuedProbe = GProbe()
                weakImmediate = immediateProbe
                weakQueued = queuedProbe
                subject.onComplete(immediateExecutionContext) { _ in
                    withExtendedLifetime(immediateProbe) {}
                    ran.increment()
                }
                subject.onComplete(queue.context) { _ in
                    withExtendedLifetime(queuedProbe) {}
                    ran.increment()
                }
            }
            if testCase.entry == .pendingThenCompleted {
                // Pending: the captures are held while the callbacks wait.
                #expect(weakImmediate != nil && weakQueued != nil)
            }
            subject.complete()
            queue.drain()
            #expect(ran.value == 2)
            #expect(weakImmediate == nil)
            // The queue releases its block after running it; let it finish that (bounded).
            gSpin(until: { weakQueued == nil }, step: queue.drain)
            #expect(weakQueued == nil)
        }

        /// A future derived from a pending one (by `map`, both `flatMap`s, `mapError`, `recover`, `recoverWith`,
        /// `andThen`, `filter`) carries the combinator's closure until it ran, then holds nothing of it: the
        /// derived futures, still held here, no longer keep what the closures captured. On the immediate
        /// context and on a queue, whether the source succeeds or fails (then `map`'s, `flatMap`'s and
        /// `filter`'s closures are released without running, and `mapError`'s, `recover`'s and
        /// `recoverWith`'s run).
        @Test(arguments: [false, true], [false, true])
        func aDerivedFutureReleasesItsCombinatorsClosureOnceItRan(onQueue: Bool, fails: Bool) {
            let queue = GQueue("g6.derived")
            let context = onQueue ? queue.context : immediateExecutionContext
            let promise = Promise<Int, GError>()
            weak var weakProbe: GProbe?
            var derived: [any FutureOutcome] = []
            do {
                let probe = GProbe()
                weakProbe = probe
                let source = promise.future
                let keep: @Sendable () -> Void = { withExtendedLifetime(probe) {} }
                derived.append(
                    source.map(context) { value in
                        keep()
                        return value + 1
                    })
                derived.append(
                    source.flatMap(context) { value in
                        keep()
                        return Future(value: value)
                    })
                derived.append(
                    source.flatMap(context) { value -> Result<Int, GError> in
                        keep()
                        return .success(value)
                    })
                derived.append(
                    source.mapError(context) { error in
                        keep()
                        return error
                    })
                derived.append(
                    source.recover(context: context) { _ in
                        keep()
                        return 0
                    })
                derived.append(
                    source.recoverWith(context: context) { _ in
                        keep()
                        return Future<Int, GError>(value: 0)
                    })
                derived.append(source.andThen(context: context) { _ in keep() })
                derived.append(
                    source.filter { _ in
                        keep()
                        return true
                    })
            }
            #expect(weakProbe != nil, "pending: the derived futures hold their steps")
            if fails { promise.failure(.failed(1)) } else { promise.success(1) }
            queue.drain()
            // The queue releases its blocks after running them; let it finish that (bounded).
            gSpin(until: { weakProbe == nil }, step: queue.drain)
            #expect(weakProbe == nil)
            // Read, so that a failed one is not reported as an unobserved failure.
            func isCompleted(_ future: some FutureOutcome) -> Bool { future._outcome != nil }
            #expect(derived.count == 8 && derived.allSatisfy { isCompleted($0) })
        }

        @Test func aCompletedFutureHoldsOnlyItsResult() {
            let promise = Promise<Int, Never>()
            for _ in 0..<10 { promise.future.onSuccess(immediateExecutionContext) { _ in } }
            #expect(gEntries(promise.future).stored == 10)
            promise.success(1)
            #expect(gEntries(promise.future).stored == 0)
            if case .completed = promise.future.state {} else { Issue.record("state: \(promise.future.state)") }
        }

        /// A callback switched off by a `CancelToken` releases its capture at once, while the future is pending.
        @Test func aCancelTokenReleasesTheCaptureAtOnce() {
            let promise = Promise<Int, Never>()
            let token = CancelToken()
            weak var weakProbe: GProbe?
            do {
                let probe = GProbe()
                weakProbe = probe
                promise.future.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in
                    withExtendedLifetime(probe) {}
                }
            }
            #expect(weakProbe != nil)
            #expect(promise.future.cancel(token))
            #expect(weakProbe == nil)
            #expect(!promise.future.isCompleted)
            // And it leaves nothing live behind in the future's list.
            #expect(gEntries(promise.future).live == 0)
            promise.success(1)
        }

        @Test func aCancelledStreamSubscriptionReleasesItsCaptureAtOnce() {
            let promise = StreamPromise<Int>()
            let token = CancelToken()
            weak var weakProbe: GProbe?
            do {
                let probe = GProbe()
                weakProbe = probe
                promise.stream.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in
                    withExtendedLifetime(probe) {}
                }
            }
            #expect(weakProbe != nil)
            #expect(promise.stream.cancel(token))
            #expect(weakProbe == nil)
            #expect(promise.stream.subscriberCountForTesting == 0)
        }

        @Test func anInvalidatedTokensRegistrationIsReleasedAtOnce() {
            let promise = Promise<Int, Never>()
            let token = InvalidationToken()
            weak var weakProbe: GProbe?
            do {
                let probe = GProbe()
                weakProbe = probe
                promise.future.onSuccess(token.validContext(immediateExecutionContext)) { _ in
                    withExtendedLifetime(probe) {}
                }
            }
            #expect(weakProbe != nil)
            token.invalidate()
            #expect(weakProbe == nil, "an invalidated registration kept its capture until completion")
            #expect(gEntries(promise.future).live == 0)
            promise.success(1)
        }

        @Test func aDisposedCancellationRegistrationIsReleasedAtOnce() {
            let promise = Promise<Int, any Error>()
            weak var weakProbe: GProbe?
            let registration: CancellationRegistration
            do {
                let probe = GProbe()
                weakProbe = probe
                registration = promise.onCancellationRequested { withExtendedLifetime(probe) {} }
            }
            #expect(weakProbe != nil)
            #expect(gEntries(promise.future).live == 1)
            registration.dispose()
            #expect(weakProbe == nil)
            #expect(gEntries(promise.future).live == 0)
            promise.success(1)
        }

        /// A waiter of `get(onTaskCancellation: .stopWaiting)` whose task is cancelled leaves at once.
        @Test func aStoppedWaiterIsRemovedAtOnce() async {
            let promise = Promise<Int, Never>()
            let waiting = Task { try await promise.future.get(onTaskCancellation: .stopWaiting) }
            let registered = await gEventually { gEntries(promise.future).live == 1 }
            #expect(registered)
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            #expect(gEntries(promise.future).live == 0)
            #expect(!promise.future.isCompleted)
            promise.success(1)
        }

        /// `forced(_:)` that timed out takes its waiter back.
        @Test func aTimedOutForcedLeavesNoWaiterBehind() {
            let future = Future<Int, Never>()
            #expect(future.forced(.now() + .milliseconds(1)) == nil)
            #expect(gEntries(future).live == 0)
            #expect(future.forced(.now()) == nil)
            #expect(gEntries(future).live == 0)
        }

        /// An abandoned pending chain — a source nobody can complete, with maps and callbacks — is freed.
        @Test func anAbandonedPendingChainIsFreed() {
            weak var weakRoot: Future<Int, GError>?
            weak var weakLast: Future<Int, GError>?
            weak var weakProbe: GProbe?
            do {
                let probe = GProbe()
                weakProbe = probe
                let root = Future<Int, GError>()
                weakRoot = root
                let queue = GQueue("g6.abandoned")
                var last = root
                for step in 0..<10 {
                    last = last.map(immediateExecutionContext) { $0 + step }
                    last.onSuccess(queue.context) { _ in withExtendedLifetime(probe) {} }
                    last = last.flatMap(immediateExecutionContext) { Future(value: $0) }
                    last = last.recoverWith(context: immediateExecutionContext) { _ in Future<Int, GError>(value: 0) }
                }
                last.onComplete(immediateExecutionContext) { _ in withExtendedLifetime(probe) {} }
                weakLast = last
            }
            #expect(weakRoot == nil)
            #expect(weakLast == nil)
            #expect(weakProbe == nil)
        }

        /// An abandoned promise whose error type cannot say "broken": its callbacks are released (G10).
        @Test func anAbandonedNeverFailingPromiseReleasesItsCallbacks() {
            weak var weakFuture: Future<Int, Never>?
            weak var weakProbe: GProbe?
            _ = gDiagnostics {
                let probe = GProbe()
                weakProbe = probe
                let promise = Promise<Int, Never>()
                weakFuture = promise.future
                promise.future.map(immediateExecutionContext) { $0 }.onSuccess(immediateExecutionContext) { _ in
                    withExtendedLifetime(probe) {}
                }
            }
            #expect(weakFuture == nil)
            #expect(weakProbe == nil)
        }

        @Test(arguments: GFace.allCases)
        func abandonedPendingWorkOnEveryFaceIsFreed(_ face: GFace) {
            weak var weakProbe: GProbe?
            let queue = GQueue("g6.face")
            _ = gDiagnostics {
                let probe = GProbe()
                weakProbe = probe
                let subject = GCase(face: face, entry: .pendingThenCompleted).make()
                subject.onComplete(immediateExecutionContext) { _ in withExtendedLifetime(probe) {} }
                subject.onComplete(queue.context) { _ in withExtendedLifetime(probe) {} }
            }
            // A dropped promise fails its future (BFTask: `brokenPromise`) or the callbacks are released with
            // the pending future; a dropped StreamPromise finishes its stream. Either way nothing is kept.
            gSpin(until: { weakProbe == nil }, step: queue.drain)
            #expect(weakProbe == nil)
        }

        /// A future never retains the futures it was derived from.
        @Test func aDerivedFutureDoesNotRetainItsSource() {
            weak var weakSource: Future<Int, Never>?
            let derived: Future<Int, Never>
            do {
                let source = Future<Int, Never>()
                weakSource = source
                derived = source.map(immediateExecutionContext) { $0 }.zip(Future<Int, Never>()).map(
                    immediateExecutionContext
                ) { $0.0 }
            }
            #expect(weakSource == nil)
            #expect(!derived.isCompleted)
        }
    }
}
