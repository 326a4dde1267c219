import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

extension Guarantees {
    /// G11. Costs: registering, removing and cancelling are O(1) amortised. Measured by counted work (entries
    /// left in the list, callbacks run), never by wall-clock time.
    @Suite("G11 Costs")
    struct G11CostsTests {
        /// The most entries a pending future may store after any number of register/remove cycles next to a few
        /// permanent entries: the list sheds removed entries before it grows, so it stays at a small constant
        /// size, the same at n and 10n cycles.
        static let smallList = 16

        /// `forced(_:)` with an expired deadline: each call stores a waiter and takes it back.
        @Test(arguments: [10_000, 100_000])
        func expiredForcedWaitsLeaveTheListSmall(_ cycles: Int) {
            let promise = Promise<Int, Never>()
            let ran = GCounter()
            promise.future.onSuccess(immediateExecutionContext) { _ in ran.increment() }
            var largest = 0
            for _ in 0..<cycles {
                #expect(promise.future.forced(.now()) == nil)
                largest = max(largest, gEntries(promise.future).stored)
            }
            let entries = gEntries(promise.future)
            #expect(entries.live == 1)
            #expect(entries.stored <= Self.smallList)
            #expect(largest <= Self.smallList)
            promise.success(1)
            #expect(ran.value == 1)
        }

        /// Cancellation registrations disposed one after another (the `CancellationToken` face, also
        /// `BFCancellationToken`): each stores a removable handler and takes it back.
        @Test(arguments: [10_000, 100_000])
        func disposedRegistrationsLeaveTheListSmall(_ cycles: Int) {
            let promise = Promise<Int, any Error>()
            let ran = GCounter()
            promise.future.onSuccess(immediateExecutionContext) { _ in ran.increment() }
            var largest = 0
            for _ in 0..<cycles {
                let registration = promise.onCancellationRequested { ran.increment() }
                registration.dispose()
                largest = max(largest, gEntries(promise.future).stored)
            }
            #expect(gEntries(promise.future).live == 1)
            #expect(largest <= Self.smallList)
            promise.future.requestCancellation()
            #expect(ran.value == 0)
            promise.success(1)
            #expect(ran.value == 1)
        }

        /// Waiters of `get(onTaskCancellation: .stopWaiting)` whose tasks are cancelled, in waves of 100
        /// concurrent waiters: the list never holds more than a wave plus a constant.
        @Test(arguments: [10_000, 100_000])
        func cancelledWaitersLeaveTheListSmall(_ cycles: Int) async {
            let promise = Promise<Int, Never>()
            let wave = 100
            var largest = 0
            for _ in 0..<(cycles / wave) {
                let tasks = (0..<wave).map { _ in
                    Task { try await promise.future.get(onTaskCancellation: .stopWaiting) }
                }
                largest = max(largest, gEntries(promise.future).stored)
                for task in tasks { task.cancel() }
                for task in tasks { _ = try? await task.value }
                #expect(gEntries(promise.future).live == 0)
            }
            largest = max(largest, gEntries(promise.future).stored)
            #expect(gEntries(promise.future).live == 0)
            // Tombstones are shed when the list would grow, and the capacity at most doubles past twice the
            // live peak (power-of-two growth): bounded by the wave, not by the number of cycles.
            #expect(largest <= 4 * wave + Self.smallList)
            promise.success(1)
        }

        /// Cancel-token switch-offs: the token's registry and the future's live entries stay small.
        @Test(arguments: [10_000, 100_000])
        func cancelTokenSwitchOffsLeaveNothingLive(_ cycles: Int) {
            let promise = Promise<Int, Never>()
            let ran = GCounter()
            for _ in 0..<cycles {
                let token = CancelToken()
                promise.future.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in ran.increment()
                }
                promise.future.cancel(token)
            }
            #expect(gEntries(promise.future).live == 0, "switched-off callbacks stay in the list until completion")
            #expect(gEntries(promise.future).stored <= Self.smallList)
            promise.success(1)
            #expect(ran.value == 0)
        }

        /// Stream subscriptions cancelled one after another: the stream keeps no slot for them.
        @Test(arguments: [10_000, 100_000])
        func cancelledStreamSubscriptionsLeaveNoSlots(_ cycles: Int) {
            let promise = StreamPromise<Int>()
            let ran = GCounter()
            for _ in 0..<cycles {
                let token = CancelToken()
                promise.stream.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in
                    ran.increment()
                }
                promise.stream.cancel(token)
            }
            #expect(promise.stream.subscriberCountForTesting <= Self.smallList)
            promise.success(1)
            #expect(ran.value == 0)
        }

        /// `sequence` over n and 10n pending inputs completed in reverse order: linear counted work means each
        /// input's completion is handled once (observed: one result per input, in list order).
        @Test(arguments: [10_000, 100_000])
        func sequenceOfPendingInputsCompletedInReverse(_ count: Int) {
            let promises = (0..<count).map { _ in Promise<Int, Never>() }
            let counted = GCounter()
            let context = ExecutionContext { task in
                counted.increment()
                task()
            }
            let all = promises.map(\.future).sequence().map(context) { $0 }
            for (index, promise) in promises.enumerated().reversed() { promise.success(index) }
            #expect(all.value == Array(0..<count))
            #expect(counted.value == 1)
        }

        /// `traverse(maxConcurrent:)` costs O(n) counted steps (its limiter's queue work plus its gatherer's
        /// slot writes and prefix moves), whether it ends with every element succeeding in a scrambled
        /// order, with a failure half-way (the elements not started are dropped), or with a cancellation.
        @Test(arguments: GTraversalEnd.allCases)
        func aBoundedTraversalIsLinear(_ end: GTraversalEnd) {
            func work(_ count: Int) -> Int {
                let promises = (0..<count).map { _ in Promise<Int, any Error>() }
                let started = GCounter()
                let (result, limiter, collector) = (0..<count).boundedTraversal(
                    maxConcurrent: 16, immediateExecutionContext
                ) { index in
                    started.increment()
                    return promises[index].future
                }
                // Completes the running elements newest first, in waves, so results arrive out of order.
                var next = 0
                while next < count, !result.isCompleted {
                    let wave = min(started.value, count) - next
                    let upTo = next + wave
                    for index in (next..<upTo).reversed() {
                        switch end {
                        case .allSucceed: promises[index].success(index)
                        case .failHalfWay:
                            if index == count / 2 {
                                promises[index].failure(GError.failed(index))
                            } else {
                                promises[index].success(index)
                            }
                        case .cancelHalfWay:
                            if index == count / 2 { result.requestCancellation() }
                            promises[index].success(index)
                        }
                    }
                    next = upTo
                }
                switch end {
                case .allSucceed: #expect(result.value == Array(0..<count))
                case .failHalfWay: #expect(result.error as? GError == .failed(count / 2))
                case .cancelHalfWay: #expect(result.error as? FuturesError == .cancelled)
                }
                #expect(started.value <= count)
                for promise in promises { _ = promise.trySuccess(0) }  // the rest end: nothing left pending
                return limiter.steps + collector.steps
            }
            let small = work(5_000)
            let large = work(50_000)
            #expect(small >= 5_000 / 2)
            #expect(large <= small * 11, "steps \(small) at n, \(large) at 10n")
        }
    }
}

/// How a cost test's traversal ends.
enum GTraversalEnd: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case allSucceed
    case failHalfWay
    case cancelHalfWay

    var testDescription: String { rawValue }
}

/// How the stream cost tests remove n subscribers.
enum GStreamRemoval: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `cancel(token)` in subscription order.
    case cancelTokensOldestFirst
    /// `cancel(token)` newest first.
    case cancelTokensNewestFirst
    /// `cancel(token)` on every other subscriber, then on the rest.
    case cancelTokensEveryOtherFirst
    /// `InvalidationToken.invalidate()`, one token per subscriber.
    case invalidationTokens
    /// `for await` consumers that go away (their iterators dropped, as when a loop is left).
    case leftLoops

    var testDescription: String { rawValue }
}

extension Guarantees.G11CostsTests {
    /// The steps a stream's state took (slots visited, looked up or moved) while `body` ran.
    static func streamSteps(_ stream: FutureStream<Int>, _ body: () -> Void) -> Int {
        let before = stream.stepsForTesting
        body()
        return stream.stepsForTesting - before
    }

    /// Subscribing n times to a stream costs O(n) counted steps.
    @Test func subscribingToAStreamIsLinear() {
        func work(_ count: Int) -> Int {
            let promise = StreamPromise<Int>(capacity: 4)
            for value in 0..<4 { promise.success(value) }
            return Self.streamSteps(promise.stream) {
                for _ in 0..<count { promise.stream.onSuccess(context: immediateExecutionContext) { _ in } }
            }
        }
        let small = work(2_000)
        let large = work(20_000)
        #expect(small >= 2_000)
        #expect(large <= small * 11, "steps \(small) at n, \(large) at 10n")
    }

    /// Removing n stream subscribers, in any order and by any means, costs O(n) counted steps, and the
    /// subscriber table never holds more than about twice the subscribers left.
    @Test(arguments: GStreamRemoval.allCases)
    func removingStreamSubscribersIsLinear(_ removal: GStreamRemoval) {
        func work(_ count: Int) -> Int {
            let promise = StreamPromise<Int>(capacity: 0)
            let stream = promise.stream
            let ran = GCounter()
            var tableFits = true
            func checkTable() {
                let live = stream.subscriberCountForTesting
                tableFits = tableFits && stream.storedSlotCountForTesting <= 2 * live + 1
            }
            let steps: Int
            switch removal {
            case .cancelTokensOldestFirst, .cancelTokensNewestFirst, .cancelTokensEveryOtherFirst:
                let tokens = (0..<count).map { _ in CancelToken() }
                for token in tokens {
                    stream.onSuccess(context: immediateExecutionContext, cancelToken: token) { _ in ran.increment() }
                }
                var order = tokens
                if removal == .cancelTokensNewestFirst { order.reverse() }
                if removal == .cancelTokensEveryOtherFirst {
                    order =
                        tokens.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
                        + tokens.enumerated().filter { !$0.offset.isMultiple(of: 2) }.map(\.element)
                }
                steps = Self.streamSteps(stream) {
                    for (index, token) in order.enumerated() {
                        _ = stream.cancel(token)
                        if index.isMultiple(of: 97) { checkTable() }
                    }
                }
            case .invalidationTokens:
                let tokens = (0..<count).map { _ in InvalidationToken() }
                for token in tokens {
                    stream.onSuccess(context: token.validContext(immediateExecutionContext)) { _ in ran.increment() }
                }
                steps = Self.streamSteps(stream) {
                    for (index, token) in tokens.enumerated() {
                        token.invalidate()
                        if index.isMultiple(of: 97) { checkTable() }
                    }
                }
            case .leftLoops:
                var iterators = (0..<count).map { _ in stream.makeAsyncIterator() }
                #expect(stream.subscriberCountForTesting == count)
                steps = Self.streamSteps(stream) { iterators.removeAll() }
            }
            #expect(stream.subscriberCountForTesting == 0)
            #expect(stream.storedSlotCountForTesting == 0)
            #expect(tableFits, "the table held more than twice the subscribers left")
            promise.success(1)
            #expect(ran.value == 0)
            return steps
        }
        let small = work(2_000)
        let large = work(20_000)
        #expect(small >= 2_000)
        #expect(large <= small * 11, "steps \(small) at n, \(large) at 10n")
    }

    /// One result published to n subscribers costs O(n) counted steps, on the immediate context (taken
    /// directly up to 64 subscribers, through their drainers beyond) and on a serial queue.
    @Test(arguments: [6, 2_000], [true, false])
    func publishingToStreamSubscribersIsLinear(_ count: Int, _ immediate: Bool) {
        let queue = GQueue("g11.stream")
        func work(_ count: Int) -> Int {
            let promise = StreamPromise<Int>(capacity: 0)
            let received = GCounter()
            let context = immediate ? immediateExecutionContext : queue.context
            for _ in 0..<count { promise.stream.onSuccess(context: context) { _ in received.increment() } }
            let steps = Self.streamSteps(promise.stream) {
                promise.success(1)
                queue.drain()
            }
            #expect(received.value == count)
            return steps
        }
        let small = work(count)
        let large = work(count * 10)
        #expect(small >= count)
        #expect(large <= small * 11, "steps \(small) at n, \(large) at 10n")
    }

    /// Finishing a stream with n subscribers (each gets the end and is removed) costs O(n) counted steps.
    @Test func finishingAStreamWithManySubscribersIsLinear() {
        func work(_ count: Int) -> Int {
            let promise = StreamPromise<Int>(capacity: 0)
            let ended = GCounter()
            for _ in 0..<count {
                promise.stream.onFinish(context: immediateExecutionContext) { _ in ended.increment() }
            }
            let steps = Self.streamSteps(promise.stream) { promise.finish() }
            #expect(ended.value == count)
            #expect(promise.stream.storedSlotCountForTesting == 0)
            return steps
        }
        let small = work(2_000)
        let large = work(20_000)
        #expect(small >= 2_000)
        #expect(large <= small * 11, "steps \(small) at n, \(large) at 10n")
    }
}
