// Ordinary chains of the SimpleFutures face, as its users write them: each expression must type-check
// in under 100 ms (`-Xfrontend -warn-long-expression-type-checking=100`). Not part of any target.
import SimpleFutures

enum BudgetError: Error {
    case invalid
}

func fetchCount() -> Future<Int> { future(1) }
func fetchName(_ id: Int) -> Future<String> { future("name \(id)") }
func updates() -> FutureStream<Int> { FutureStream(value: 1, capacity: 10) }

func futureChains() {
    let context = ImmediateContext()
    let token = CancelToken()

    _ = fetchCount().map { $0 + 1 }.map { $0 * 2 }.map { $0 - 3 }

    _ = fetchCount()
        .map(context: context) { $0 + 1 }
        .flatMap(context: context) { value -> Future<String> in fetchName(value) }
        .map(context: context) { $0 + "!" }
        .recover(context: context) { _ in "unknown" }

    _ = fetchCount()
        .map { value -> Int in
            guard value > 0 else { throw BudgetError.invalid }
            return value * 10
        }
        .withFilter { $0 > 5 }
        .recover { _ in 0 }
        .andThen { value in print(value) }
        .mapError { _ in BudgetError.invalid }

    _ = fetchCount()
        .flatMap(cancelToken: token) { fetchName($0 + 1) }
        .flatMap { name in future(name.count) }
        .recoverWith { _ in future(0) }
        .map { $0 + 1 }

    _ = fetchCount().map { "\($0)" }.map { $0 + "a" }.map { $0 + "b" }.map { $0 + "c" }.map { $0.count }

    _ = (fetchCount().map { $0 + 1 } ?? 0).map { $0 * 2 }

    _ = [fetchCount(), fetchCount(), fetchCount()].fold(initial: 0) { $0 + $1 }.map { $0 * 2 }

    _ = [fetchCount(), fetchCount()].sequence().map { $0.reduce(0, +) }.recover { _ in 0 }

    fetchCount().map { $0 + 1 }.andThen { print($0) }.onSuccess(context: context) { print($0 + 1) }
}

func streamChains() {
    let context = ImmediateContext()
    let token = CancelToken()

    _ = updates().map { $0 + 1 }.map { $0 * 2 }.withFilter { $0 > 2 }

    _ = updates()
        .map(context: context, cancelToken: token) { $0 + 1 }
        .flatMap(context: context) { value -> Future<String> in fetchName(value) }
        .map(context: context) { $0 + "!" }
        .recover(context: context) { _ in "unknown" }

    _ = updates()
        .flatMap { value -> FutureStream<Int> in FutureStream(value: value * 2, capacity: 10) }
        .recoverWith { _ -> Future<Int> in future(0) }
        .mapError { _ in BudgetError.invalid }
        .andThen { print($0) }

    _ = fetchCount()
        .flatMap(capacity: 10) { value -> FutureStream<Int> in FutureStream(value: value, capacity: 10) }
        .map { $0 + 1 }
        .withFilter { $0 % 2 == 0 }
        .recover { _ in 0 }

    updates().map { $0 * 3 }.forEach { print($0) }
}
