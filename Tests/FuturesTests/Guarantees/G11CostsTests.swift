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
    }
}
