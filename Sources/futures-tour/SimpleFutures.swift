import Dispatch
import SimpleFutures
import Synchronization

private enum SensorError: Error {
    case tooLow(Int)
}

/// A callback API, as SimpleFutures users adapt them.
private func readSensor(_ completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
    DispatchQueue.global().async { completion(21, nil) }
}

/// The `SimpleFutures` module: untyped futures, adapters, cancel tokens and stream callbacks, as
/// SimpleFutures' users write them; then the streams chapter.
func tourSimpleFutures() async {
    print("\n== SimpleFutures: untyped futures ==")
    let reading: Future<Int?> = future(method: readSensor)
    let doubled = reading.map(context: QueueContext.global) { value -> Int in
        guard let value, value > 10 else { throw SensorError.tooLow(value ?? 0) }
        return value * 2
    }
    print("future(method:) then a throwing map:", await outcome(of: doubled))

    let rejected = Future<Int>(value: 3).withFilter(context: ImmediateContext()) { $0 > 10 }
    print("withFilter rejecting 3 fails with:", await outcome(of: rejected))

    let recovered = Future<Int>(error: SensorError.tooLow(1))
        .recover(context: ImmediateContext()) { error -> Int in
            guard case SensorError.tooLow(let value) = error else { throw error }
            return value * 100
        }
    print("recover from tooLow(1):", await outcome(of: recovered))

    let total = [1, 2, 3].map { future($0) }.fold(context: ImmediateContext(), initial: 0) { $0 + $1 }
    print("fold of [1, 2, 3]:", await outcome(of: total))

    let token = CancelToken()
    let request = Promise<Int>()
    let chained = request.future.map(context: ImmediateContext(), cancelToken: token) { $0 + 1 }
    chained.onSuccess(context: ImmediateContext(), cancelToken: token) { print("never printed:", $0) }
    print("cancel(token) unregistered something:", request.future.cancel(token))
    request.success(1)
    print("the chain built with the token stays pending, as in SimpleFutures:", !chained.completed)

    let queue = Queue("tour.queue")
    print("Queue.sync returns a value:", queue.sync { 6 * 7 })

    tourStreamCallbacks()
    await tourStreams()
}

/// SimpleFutures' stream callbacks and combinators: replay, then live values; a token switches one off.
private func tourStreamCallbacks() {
    let promise = StreamPromise<Int>(capacity: 3)
    for value in 1...5 { promise.success(value) }
    let replayed = LockedValues()
    promise.stream.onSuccess(context: ImmediateContext()) { replayed.append($0) }
    print("a new subscriber first gets the replay:", replayed.values)
    promise.success(6)
    print("then live values:", replayed.values)

    let evens = promise.stream
        .map(context: ImmediateContext()) { $0 * 10 }
        .withFilter(context: ImmediateContext()) { $0 % 20 == 0 }
    let filtered = LockedValues()
    evens.onComplete(context: ImmediateContext()) { result in
        filtered.append((try? result.get()) ?? -1)
    }
    print("map then withFilter (-1 marks a rejected value):", filtered.values)

    let token = CancelToken()
    let live = StreamPromise<String>()
    let heard = LockedValues()
    live.stream.onSuccess(context: ImmediateContext(), cancelToken: token) { heard.append($0.count) }
    live.success("one")
    live.stream.cancel(token)
    live.success("three")
    print("a subscriber cancelled by token heard", heard.values.count, "value")
}

/// The value, or the error, a future completed with (waiting for it on an immediate callback).
private func outcome<T: Sendable>(of future: Future<T>) async -> String {
    await withCheckedContinuation { continuation in
        future.onComplete(context: ImmediateContext()) { result in
            switch result {
            case .success(let value): continuation.resume(returning: "\(value)")
            case .failure(let error): continuation.resume(returning: "\(error)")
            }
        }
    }
}

/// Values collected from callbacks (which may run on any thread).
private final class LockedValues: Sendable {
    private let items = Mutex<[Int]>([])
    func append(_ value: Int) { items.withLock { $0.append(value) } }
    var values: [Int] { items.withLock { $0 } }
}
