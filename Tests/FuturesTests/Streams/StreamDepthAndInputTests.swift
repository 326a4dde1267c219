import Dispatch
import Foundation
import Testing

@testable import Futures

/// Runs `body` in a Swift `Task`, on a Dispatch queue and on a plain `Thread`, and waits for each.
private func onEveryKindOfThread(_ body: @escaping @Sendable () -> Void) async {
    await Task { body() }.value
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            body()
            continuation.resume()
        }
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            body()
            continuation.resume()
        }
        thread.start()
    }
}

@Suite("Streams: stack safety and bad input")
struct StreamDepthAndInputTests {
    // MARK: Bad input

    @Test func aStreamMadeFromAValueHoldsItEvenWithCapacityZero() {
        let stream = FutureStream(value: 7, capacity: 0)
        #expect(stream.capacity == 1)
        #expect(stream.count == 1)
        let seen = Recorder<Int>()
        let ended = Counter()
        stream.onSuccess(context: immediateExecutionContext) { seen.append($0) }
        stream.onFinish(context: immediateExecutionContext) { _ in ended.increment() }
        #expect(seen.values == [7])
        #expect(ended.value == 1)
        let failed = FutureStream<Int>(error: FuturesError.noSuchElement, capacity: 0)
        #expect(failed.count == 1)
    }

    #if !os(Windows)
        @Test func aNegativeCapacityStopsTheProgramWithAMessage() async {
            await #expect(processExitsWith: .failure) {
                _ = StreamPromise<Int>(capacity: -1)
            }
            await #expect(processExitsWith: .failure) {
                _ = FutureStream<Int>(value: 1, capacity: -1)
            }
        }
    #endif

    // MARK: Stack safety

    /// A value travels through 100,000 immediate `map`s, then the end; run in a Task, on a queue and
    /// on a plain thread (each has a default-sized stack).
    @Test func aHundredThousandStreamMapsDeliverInBoundedStack() async {
        await onEveryKindOfThread {
            let promise = StreamPromise<Int>(capacity: 1)
            var stream = promise.stream
            for _ in 0..<heavyTestDepth {
                stream = stream.map(context: immediateExecutionContext) { $0 + 1 }
            }
            let seen = Recorder<Int>()
            let ended = Counter()
            stream.onSuccess(context: immediateExecutionContext) { seen.append($0) }
            stream.onFinish(context: immediateExecutionContext) { _ in ended.increment() }
            promise.success(0)
            promise.finish()
            #expect(seen.values == [heavyTestDepth])
            #expect(ended.value == 1)
        }
    }

    /// A subscriber that publishes into another stream whose subscriber publishes back, 1,000,000
    /// times (on a Dispatch worker thread; the map chain above covers every kind of thread).
    @Test func aMillionRecursivePublishesUseBoundedStack() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                pingPong()
                continuation.resume()
            }
        }
    }
}

/// Two streams whose subscribers publish into each other until the count reaches 1,000,000.
private func pingPong() {
    let ping = StreamPromise<Int>(capacity: 1)
    let pong = StreamPromise<Int>(capacity: 1)
    let last = Counter()
    ping.stream.onSuccess(context: immediateExecutionContext) { value in
        if value < 1_000_000 { pong.success(value + 1) } else { last.increment(by: value) }
    }
    pong.stream.onSuccess(context: immediateExecutionContext) { value in ping.success(value + 1) }
    ping.success(0)
    #expect(last.value == 1_000_000)
    ping.finish()
    pong.finish()
}

extension StreamDepthAndInputTests {

    /// Dropping the head of 100,000 derived streams frees them all without recursing on the stack.
    @Test func droppingALongChainOfDerivedStreamsUsesBoundedStack() async {
        await onEveryKindOfThread {
            weak var tail: FutureStream<Int>?
            do {
                let head = FutureStream<Int>(openWithCapacity: 1)
                var stream = head
                for _ in 0..<heavyTestDepth {
                    stream = stream.map(context: immediateExecutionContext) { $0 }
                }
                tail = stream
                head.publish(.success(1))
            }
            #expect(tail == nil)
        }
    }
}
