import Dispatch
import Testing

@testable import Futures

/// The whole cell's invariants (`_checkInvariants()`, run at the end of every critical region in debug
/// builds): every transition of the protocol leaves them true, and each defect of the protocol made on
/// purpose breaks a named one and stops the process at the next region.
@Suite("The cell's invariants hold after every transition and catch a broken protocol")
struct FutureInvariantsTests {
    /// A producer with three consumers: a removable callback that asks through its entry, and two derived
    /// futures. Returns the producer, the entry and the two derived futures.
    func threeConsumers() -> (GProducer, RemovableEntry<Int, any Error>, Future<Int, any Error>, Future<Int, any Error>)
    {
        let producer = GProducer()
        let entry = RemovableEntry<Int, any Error>(.callback(immediateExecutionContext, { _ in }))
        #expect(producer.future.addRemovable(entry))
        let first = producer.future.map(immediateExecutionContext) { $0 }
        let second = producer.future.map(immediateExecutionContext) { $0 }
        return (producer, entry, first, second)
    }

    /// Registrations of every kind, asks through an entry and by number, the tally, a removal, the request,
    /// completion and a registration after it: the cell is sound after each.
    @Test func everyTransitionOfTheProtocolLeavesTheCellSound() {
        let (producer, entry, first, second) = threeConsumers()
        let cell = producer.future
        #expect(cell.invariantViolationsForTesting.isEmpty)
        cell.consumerAsks(through: entry)
        #expect(cell.state.consumerTally != nil, "an ask while others wait puts a tally in the list")
        #expect(cell.invariantViolationsForTesting.isEmpty)
        first.requestCancellation()
        #expect(cell.invariantViolationsForTesting.isEmpty)
        #expect(cell.removeEntry(entry))
        #expect(producer.asked.value == 0, "the second derived future still waits")
        #expect(cell.invariantViolationsForTesting.isEmpty)
        second.requestCancellation()
        #expect(producer.asked.value == 1)
        #expect(cell.invariantViolationsForTesting.isEmpty)
        producer.finish()
        #expect(cell.invariantViolationsForTesting.isEmpty)
        cell.whenComplete(immediateExecutionContext) { _ in }
        #expect(cell.invariantViolationsForTesting.isEmpty)
        #expect(first.value == 0 && second.value == 0)
    }

    /// A failed cell, and one completed while another context still receives its callbacks, are sound.
    @Test func aFailureAndAHandOutLeaveTheCellSound() {
        let failed = Future<Int, GError>(error: .failed(1))
        #expect(failed.invariantViolationsForTesting.isEmpty)
        #expect(failed.error == .failed(1))
        let promise = Promise<Int, Never>()
        let queue = DispatchQueue(label: "invariants")
        let handedOut = DispatchSemaphore(value: 0)
        promise.future.onComplete(queue.context) { _ in handedOut.signal() }
        promise.success(1)
        handedOut.wait()
        #expect(promise.future.invariantViolationsForTesting.isEmpty)
    }

    /// A completion that left its callbacks stored (so that they would run twice) breaks the rule that
    /// a completed cell holds only its result.
    @Test func callbacksKeptAfterCompletionAreCaught() {
        let (producer, _, _, _) = threeConsumers()
        producer.future.corruptForTesting(.callbacksKeptAfterCompletion)
        #expect(
            producer.future.invariantViolationsForTesting == ["the completed flag is set while the state is pending"])
        producer.future.corruptForTesting(.callbacksKeptAfterCompletion)
        #expect(producer.future.invariantViolationsForTesting.isEmpty)
        producer.finish()
    }

    /// The first entry of a pending cell is stored in the words in place: the state is then what the state
    /// machine makes of it (one entry, pending), the next entries go after it, and the completion runs them
    /// once each, in registration order. The same holds after a removal emptied the list.
    @Test func theFirstEntryStoredInPlaceIsTheStateMachinesFirstEntry() {
        let promise = Promise<Int, Never>()
        let order = LockedBox<[String]>([])
        promise.future.onComplete(immediateExecutionContext) { _ in order.withValue { $0.append("first") } }
        guard case .pending(.one(.inline)) = promise.future.state else {
            Issue.record("the first entry is not stored as one inline callback: \(promise.future.state)")
            return
        }
        promise.future.onComplete(immediateExecutionContext) { _ in order.withValue { $0.append("second") } }
        #expect(promise.future.state.pendingEntries.count == 2)
        #expect(promise.future.invariantViolationsForTesting.isEmpty)
        promise.success(1)
        #expect(order.withValue { $0 } == ["first", "second"])

        let emptied = Promise<Int, Never>()
        let token = CancelToken()
        emptied.future.whenComplete(immediateExecutionContext, cancelToken: token) { _ in
            order.withValue { $0.append("taken back") }
        }
        #expect(emptied.future.cancel(token))
        emptied.future.onComplete(immediateExecutionContext) { _ in order.withValue { $0.append("after") } }
        #expect(emptied.future.invariantViolationsForTesting.isEmpty)
        emptied.success(2)
        #expect(order.withValue { $0 } == ["first", "second", "after"])
    }

    /// A completed cell says whether its result needs destruction (what `deinit` skips on); a value that
    /// does, marked as one that does not, is caught, and so is the opposite.
    @Test func aTrivialPayloadMarkedWronglyIsCaught() {
        let text = Future<String, Never>(value: "needs destruction")
        let number = Future<Int, GError>(value: 1)
        let failed = Future<Int, GError>(error: .failed(2))
        #expect(text.invariantViolationsForTesting.isEmpty && number.invariantViolationsForTesting.isEmpty)
        #expect(failed.invariantViolationsForTesting.isEmpty)
        text.corruptForTesting(.trivialPayloadFlipped)
        number.corruptForTesting(.trivialPayloadFlipped)
        let expected = ["the trivial-payload bit does not match the result's type"]
        #expect(text.invariantViolationsForTesting == expected)
        #expect(number.invariantViolationsForTesting == expected)
        text.corruptForTesting(.trivialPayloadFlipped)
        number.corruptForTesting(.trivialPayloadFlipped)
        #expect(text.invariantViolationsForTesting.isEmpty && number.invariantViolationsForTesting.isEmpty)
        #expect(text.value == "needs destruction" && failed.error == .failed(2))
    }

    /// A removal that kept its entry's ask breaks the rule that a tombstone has neither closure nor ask.
    @Test func anAskKeptAfterItsRemovalIsCaught() {
        let (producer, entry, _, _) = threeConsumers()
        producer.future.consumerAsks(through: entry)
        producer.future.corruptForTesting(.askKeptAfterRemoval)
        #expect(
            producer.future.invariantViolationsForTesting == [
                "a removable entry in the list is asked and holds nothing"
            ])
        producer.finish()
    }

    /// Asks that reach the consumers without a request break the consumer rule's bookkeeping.
    @Test func anAskCountedTwiceIsCaught() {
        let (producer, entry, _, _) = threeConsumers()
        producer.future.consumerAsks(through: entry)
        producer.future.corruptForTesting(.askCountedTwice)
        #expect(
            producer.future.invariantViolationsForTesting == ["every consumer asked (3 of 3) but no request was made"])
        producer.finish()
    }

    #if DEBUG
        /// In a debug build, the next critical region after a defect stops the process, naming the rule.
        @Test func theNextCriticalRegionStopsTheProcess() async {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let promise = Promise<Int, Never>()
                promise.future.onComplete(immediateExecutionContext) { _ in }
                promise.future.corruptForTesting(.callbacksKeptAfterCompletion)
                _ = promise.future.isCompleted
            }
        }
    #endif
}
