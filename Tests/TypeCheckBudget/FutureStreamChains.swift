// Type-checking budget for streams as the SimpleFutures face spells them: ordinary `FutureStream` chains —
// operators in `$0` blocks, named parameters, explicit contexts, futures and streams returned from
// blocks, 3–6 steps. Not part of any target: type-checked by scripts/check-type-checking.sh.
import SimpleFutures

enum StreamBudgetError: Error {
    case failed
}

func lookUp(_ id: Int) -> Future<String> {
    Future(value: "item \(id)")
}

func streamMapChain() -> FutureStream<Int> {
    let promise = StreamPromise<Int>()
    return promise.stream.map { $0 + 1 }.map { $0 * 2 }.withFilter { $0 % 3 == 0 }.map { $0 - 1 }
}

func streamWithContexts() -> FutureStream<String> {
    FutureStream(value: 1)
        .map(context: ImmediateContext()) { $0 + 1 }
        .andThen(context: QueueContext.futuresDefault) { print($0) }
        .map(context: QueueContext.global) { "\($0)" + "!" }
}

func streamFlatMapChain() -> FutureStream<Int> {
    FutureStream(value: 2)
        .flatMap { lookUp($0 * 2) }
        .map { $0.count + 1 }
        .flatMap { FutureStream(value: $0 * 3) }
        .recover { _ in 0 }
}

func streamRecoverChain() -> FutureStream<Int> {
    FutureStream<Int>(error: StreamBudgetError.failed)
        .map { $0 + 1 }
        .recoverWith { _ in FutureStream(value: 5) }
        .map { $0 * 2 }
        .recover { _ in -1 }
}

func futureIntoStream() -> FutureStream<Int> {
    Future<Int>(value: 3)
        .flatMap { FutureStream(value: $0 + 1) }
        .map { $0 * 2 }
        .andThen { print($0) }
}

func streamAnnotated() -> FutureStream<String> {
    FutureStream(value: 4)
        .map { (value: Int) -> [Int] in Array(0..<value) }
        .map { (values: [Int]) -> Int in values.reduce(0, +) }
        .flatMap { (sum: Int) -> Future<String> in lookUp(sum) }
}
