import Testing

@testable import Futures

/// The future keeps no consumer counters of its own: until a consumer asks for cancellation while others
/// still wait, its consumers are its list's live consumer entries; from that ask on, a `ConsumerTally` at the
/// front of the list counts them. These tests walk each transition of that bookkeeping against the G8 rule
/// (a source is asked only when every consumer registered while it was pending has asked).
@Suite("ConsumerTally: the consumer rule without counters in the cell")
struct ConsumerTallyTests {
    /// A consumer registered after the first ask (when the tally exists) is counted too.
    @Test func aConsumerRegisteredAfterTheFirstAskHoldsTheRequestBack() {
        let producer = GProducer()
        let first = producer.future.map(immediateExecutionContext) { $0 }
        let second = producer.future.map(immediateExecutionContext) { $0 }
        first.requestCancellation()
        #expect(producer.asked.value == 0)
        #expect(gEntries(producer.future).live == 3, "two consumers and the handler; the tally is not an entry")
        let late = producer.future.map(immediateExecutionContext) { $0 }
        second.requestCancellation()
        #expect(producer.asked.value == 0, "the consumer registered after the first ask still waits")
        late.requestCancellation()
        #expect(producer.asked.value == 1)
        producer.finish()
        #expect(first.value == 0 && second.value == 0 && late.value == 0)
    }

    /// Removing the last consumer that had not asked lets the request through, as if it had asked.
    @Test func removingTheOnlyConsumerThatHasNotAskedMakesTheRequest() {
        let producer = GProducer()
        let asker = producer.future.map(immediateExecutionContext) { $0 }
        let waiter = RemovableEntry<Int, any Error>(.wakeUp { _ in })
        #expect(producer.future.addRemovable(waiter))
        asker.requestCancellation()
        #expect(producer.asked.value == 0, "the waiter still waits")
        #expect(producer.future.removeEntry(waiter))
        #expect(producer.asked.value == 1)
        producer.finish()
    }

    /// Without any ask, removing consumers never makes a request.
    @Test func removingConsumersWithoutAsksMakesNoRequest() {
        let producer = GProducer()
        let waiters = (0..<3).map { _ in RemovableEntry<Int, any Error>(.wakeUp { _ in }) }
        for waiter in waiters { #expect(producer.future.addRemovable(waiter)) }
        for waiter in waiters { #expect(producer.future.removeEntry(waiter)) }
        #expect(producer.asked.value == 0)
        producer.finish()
    }

    /// A consumer's ask when it is the only one makes the request at once and leaves no tally behind.
    @Test func theOnlyConsumersAskMakesTheRequestAtOnce() {
        let producer = GProducer()
        let only = producer.future.map(immediateExecutionContext) { $0 }
        only.requestCancellation()
        #expect(producer.asked.value == 1)
        #expect(producer.future.state.consumerTally == nil)
        producer.finish()
    }

    /// A future whose promise was dropped (and whose error type cannot say so) releases its callbacks, but
    /// the consumers they stood for still count: one ask of two does not make the request.
    @Test func consumersReleasedByADroppedPromiseStillCount() {
        var promise: Promise<Int, Never>? = Promise<Int, Never>()
        let future = promise!.future
        let handled = GCounter()
        future.onCancellationRequested { handled.increment() }
        let first = future.map(immediateExecutionContext) { $0 }
        let second = future.map(immediateExecutionContext) { $0 }
        let reports = gDiagnostics { promise = nil }
        #expect(reports.count == 1, "the dropped promise is reported")
        #expect(gEntries(future).live == 1, "its callbacks were released; only the cancellation handler stays")
        first.requestCancellation()
        #expect(!future.isCancellationRequested, "the second consumer has not asked")
        #expect(handled.value == 0)
        second.requestCancellation()
        #expect(future.isCancellationRequested)
        #expect(handled.value == 1, "the handler kept through the drop runs on the request")
    }

    /// After the first ask, a tally sits at the front of the list and survives shedding tombstones.
    @Test func theTallyStaysAtTheFrontWhileTombstonesAreShed() {
        let producer = GProducer()
        let keep = producer.future.map(immediateExecutionContext) { $0 }
        let asker = producer.future.map(immediateExecutionContext) { $0 }
        asker.requestCancellation()
        #expect(producer.future.state.consumerTally?.consumers == 2)
        for _ in 0..<1_000 {
            let waiter = RemovableEntry<Int, any Error>(.wakeUp { _ in })
            #expect(producer.future.addRemovable(waiter))
            #expect(producer.future.removeEntry(waiter))
        }
        #expect(producer.future.state.consumerTally?.consumers == 2)
        #expect(gEntries(producer.future).stored <= 16, "register/remove cycles keep the list small")
        #expect(producer.asked.value == 0)
        keep.requestCancellation()
        #expect(producer.asked.value == 1)
        producer.finish()
    }

    #if canImport(Glibc)
        /// A pending `Future<Int, Never>` fits a 48-byte glibc chunk (40 usable bytes): the state is 17 raw bytes
        /// and the flags two (Future+Storage.swift), and the cell holds no counters.
        @Test func aPendingFutureOfIntFitsA48ByteChunk() {
            #expect(smallestHeapBlock { Future<Int, Never>() } <= 40)
        }
    #endif
}
