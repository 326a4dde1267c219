import Dispatch
import Testing

@testable import Futures

/// What one subscriber received, in order. Written only by that subscriber's handler, whose calls never
/// overlap and are ordered by the stream's lock (each batch is taken under it), so a plain array is
/// safe; it is read after the subscriber's end was delivered (ordered by the promise it completes).
private final class DeliveryLog: @unchecked Sendable {
    var values: [Int] = []
    var ends = 0
}

/// A small deterministic generator, so a failing run can be replayed from its seed.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("FutureStream under contention: racing producers, subscribers joining at random times")
struct StreamStressTests {
    static let producers = 4
    static let valuesPerProducer = 10_000
    static let capacity = 64

    private final class Join: Sendable {
        let producer: Int
        let atIndex: Int
        let log = DeliveryLog()
        let done = Promise<Void, Never>()
        /// Values published (and counted) before subscribing, and after.
        let before = Counter()
        let after = Counter()
        init(producer: Int, atIndex: Int) {
            self.producer = producer
            self.atIndex = atIndex
        }
    }

    @Test func everySubscriberSeesItsReplayWindowThenEveryLaterValueOnceInOrder() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix(state: seed)
        let promise = StreamPromise<Int>(capacity: Self.capacity)
        let stream = promise.stream
        let published = Counter()
        let contexts: [ExecutionContext] = [
            immediateExecutionContext,
            ExecutionContext(queue: DispatchQueue(label: "stress.serial")),
            ExecutionContext(queue: .global()),
            ExecutionContext { task in DispatchQueue.global().async(execute: task) },
        ]

        // The witness subscribes before anything is published: it sees the one global order.
        let witness = DeliveryLog()
        let witnessDone = Promise<Void, Never>()
        stream.subscribe(context: immediateExecutionContext) { event in
            switch event {
            case .element(let result): witness.values.append(try! result.get())
            case .end:
                witness.ends += 1
                witnessDone.success(())
            }
        }

        // Eight subscribers, two per producer, each joining at a random point of that producer's run.
        var joins: [Join] = []
        for producer in 0..<Self.producers {
            for _ in 0..<2 {
                joins.append(
                    Join(producer: producer, atIndex: Int.random(in: 0..<Self.valuesPerProducer, using: &random)))
            }
        }
        let allJoins = joins
        let producersDone = Promise<Void, Never>()
        let finishedProducers = Counter()
        for producer in 0..<Self.producers {
            DispatchQueue.global().async {
                let mine = allJoins.enumerated().filter { $0.element.producer == producer }
                for index in 0..<Self.valuesPerProducer {
                    for (number, join) in mine where join.atIndex == index {
                        join.before.increment(by: published.value)
                        stream.subscribe(context: contexts[number % contexts.count]) { event in
                            switch event {
                            case .element(let result): join.log.values.append(try! result.get())
                            case .end:
                                join.log.ends += 1
                                join.done.success(())
                            }
                        }
                        join.after.increment(by: published.value)
                    }
                    promise.success(producer * 1_000_000 + index)
                    published.increment()
                }
                if finishedProducers.increment() == Self.producers { producersDone.success(()) }
            }
        }
        await producersDone.future.get()
        promise.finish()
        await witnessDone.future.get()
        for join in allJoins { await join.done.future.get() }

        // The witness saw everything, each producer's values in the order it published them.
        let total = Self.producers * Self.valuesPerProducer
        let global = witness.values
        #expect(global.count == total, "seed \(seed)")
        #expect(witness.ends == 1)
        for producer in 0..<Self.producers {
            let own = global.filter { $0 / 1_000_000 == producer }
            #expect(own == (0..<Self.valuesPerProducer).map { producer * 1_000_000 + $0 }, "seed \(seed)")
        }
        var position: [Int: Int] = [:]
        for (index, value) in global.enumerated() { position[value] = index }

        // Every subscriber saw a contiguous suffix of the global order: its replay window (the last
        // `capacity` values published before it joined), then every later value exactly once.
        for join in allJoins {
            let seen = join.log.values
            #expect(join.log.ends == 1)
            guard let first = seen.first, let start = position[first] else {
                Issue.record("subscriber saw nothing (seed \(seed))")
                continue
            }
            #expect(Array(global[start...]) == seen, "seed \(seed)")
            // It joined after `before` values were published and before `after` + (racing producers).
            let lowest = max(0, join.before.value - Self.capacity)
            let highest = max(0, join.after.value + Self.producers - Self.capacity)
            #expect(start >= lowest && start <= highest, "start \(start) not in \(lowest)...\(highest), seed \(seed)")
        }
        #expect(stream.count == Self.capacity)
        #expect(stream.subscriberCountForTesting == 0)
    }

    @Test func subscribersComingAndGoingWhileProducersRaceNeverBreakDelivery() async {
        let promise = StreamPromise<Int>(capacity: 16)
        let stream = promise.stream
        let done = Promise<Void, Never>()
        let finished = Counter()
        let strays = Recorder<Counter>()
        for worker in 0..<4 {
            DispatchQueue.global().async {
                for index in 0..<2_000 {
                    promise.success(index)
                    if index % 50 == worker {
                        // Subscribe with a token, then cancel it: no call may arrive after `cancel` returned.
                        let token = CancelToken()
                        let cancelled = Counter()
                        let stray = Counter()
                        strays.append(stray)
                        stream.onSuccess(context: ExecutionContext(queue: .global()), cancelToken: token) { _ in
                            if cancelled.value > 0 { stray.increment() }
                        }
                        if stream.cancel(token) {
                            cancelled.increment()
                        }
                    }
                }
                if finished.increment() == 4 { done.success(()) }
            }
        }
        await done.future.get()
        promise.finish()
        #expect(stream.subscriberCountForTesting == 0)
        // Only a call that had passed its check before `cancel` returned may still run: at most one each.
        #expect(strays.values.count == 160)
        #expect(strays.values.allSatisfy { $0.value <= 1 })
    }
}
