import Dispatch
import Futures

private enum SensorError: Error {
    case tooLow(Int)
}

/// A callback API, as SimpleFutures users adapt them.
private func readSensor(_ completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
    DispatchQueue.global().async { completion(21, nil) }
}

/// SimpleFutures' untyped futures, adapters and cancel tokens; then the streams chapter.
func tourSimpleFutures() async {
    print("\n== SimpleFutures: untyped futures ==")
    let reading: Future<Int, any Error> = future(method: readSensor)
    let doubled = reading.map(context: QueueContext.global) { value -> Int in
        guard value > 10 else { throw SensorError.tooLow(value) }
        return value * 2
    }
    print("future(method:) then a throwing map:", (try? await doubled.get()) ?? -1)

    let rejected = Future<Int, any Error>(value: 3).withFilter(context: ImmediateContext()) { $0 > 10 }
    print("withFilter rejecting 3 fails with:", rejected.error.map { "\($0)" } ?? "nothing")

    let recovered = Future<Int, any Error>(error: SensorError.tooLow(1))
        .recover(context: ImmediateContext()) { error -> Int in
            guard case SensorError.tooLow(let value) = error else { throw error }
            return value * 100
        }
    print("recover from tooLow(1):", recovered.value ?? -1)

    let total = [1, 2, 3].map { future($0) }.fold(context: ImmediateContext(), initial: 0) { $0 + $1 }
    print("fold of [1, 2, 3]:", total.value ?? -1)

    let neither: Future<Int, any Error> = future(method: { completion in completion(nil, nil) })
    print("a (nil, nil) callback fails with:", neither.error.map { "\($0)" } ?? "nothing")

    let token = CancelToken()
    let request = Promise<Int, any Error>()
    let chained = request.future.map(context: ImmediateContext(), cancelToken: token) { $0 + 1 }
    chained.onSuccess(context: ImmediateContext(), cancelToken: token) { print("never printed:", $0) }
    print("cancel(token) unregistered something:", request.future.cancel(token))
    request.success(1)
    print("the chain built with the token ends with:", chained.error.map { "\($0)" } ?? "nothing")

    let queue = Queue("tour.queue")
    print("Queue.sync returns a value:", queue.sync { 6 * 7 })

    await tourStreams()
}
