import Dispatch
import Testing

@testable import Futures

@Suite("Queue and SimpleFutures' context names")
struct QueueTests {
    @Test func syncRunsOnTheQueueAndReturnsAValue() {
        let queue = Queue("us.gnos.test")
        let key = DispatchSpecificKey<Int>()
        queue.queue.setSpecific(key: key, value: 7)
        let value = queue.sync { DispatchQueue.getSpecific(key: key) }
        #expect(value == 7)
        let ran = Counter()
        queue.sync { ran.increment() }
        #expect(ran.value == 1)
        #expect(throws: FuturesError.timedOut) { try queue.sync { throw FuturesError.timedOut } }
    }

    @Test func asyncAndDelayRunLater() async {
        let queue = Queue("us.gnos.async")
        let ran = Promise<Int, Never>()
        queue.async { ran.success(1) }
        #expect(await ran.future.get() == 1)
        let delayed = Promise<Int, Never>()
        queue.delay(0.01) { delayed.success(2) }
        #expect(await delayed.future.get() == 2)
        let immediate = Promise<Int, Never>()
        Queue.global.delay(-1) { immediate.success(3) }
        #expect(await immediate.future.get() == 3)
    }

    @Test func mainAndGlobalWrapTheDispatchQueues() {
        #expect(Queue.main.queue.label == DispatchQueue.main.label)
        #expect(Queue.global.queue.label == DispatchQueue.global().label)
        #expect(Queue("named").queue.label == "named")
        #expect(Queue(DispatchQueue(label: "wrapped")).queue.label == "wrapped")
    }

    @Test func queueContextsRunTasksOnTheirQueue() async {
        let queue = Queue("us.gnos.context")
        let key = DispatchSpecificKey<Int>()
        queue.queue.setSpecific(key: key, value: 3)
        let context = QueueContext(queue: queue)
        let seen = Promise<Int?, Never>()
        context.execute { seen.success(DispatchQueue.getSpecific(key: key)) }
        #expect(await seen.future.get() == 3)
        let global = Promise<Bool, Never>()
        QueueContext.global.execute { global.success(true) }
        #expect(await global.future.get())
        #expect(!QueueContext.main.isImmediate)
        // `ExecutionContext(queue: .main)` still means the dispatch queue.
        let fromDispatch = ExecutionContext(queue: .main)
        #expect(!fromDispatch.isImmediate)
    }

    @Test func immediateContextRunsInline() {
        let ran = Counter()
        ImmediateContext().execute { ran.increment() }
        #expect(ran.value == 1 && ImmediateContext().isImmediate)
    }

    @Test func futuresDefaultReadsTheDefaultContext() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            #expect(QueueContext.futuresDefault.isImmediate)
        }
    }
}
