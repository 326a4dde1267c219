// Type-checking budget for the core face (`import Futures`): ordinary chains of `Future` and `Promise`
// as users write them — operators in `$0` blocks, named parameters, explicit contexts, futures returned
// from blocks, 3–6 steps. Not part of any target: scripts/check-type-checking.sh type-checks this file
// with a per-expression budget. Each chain must stay an ordinary one-expression chain.
import Futures

enum BudgetError: Error {
    case failed
    case offline
}

func fetchCount(_ page: Int) -> Future<Int, BudgetError> {
    Future(value: page * 10)
}

func fetchName(_ id: Int) -> Future<String, BudgetError> {
    Future(value: "user \(id)")
}

func mapChain() -> Future<Int, BudgetError> {
    Future<Int, BudgetError>(value: 1).map { $0 + 1 }.map { $0 * 2 }.map { $0 - 3 }.map { $0 / 2 }
}

func mapChainWithContexts() -> Future<String, BudgetError> {
    Future<Int, BudgetError>(value: 1)
        .map(immediateExecutionContext) { $0 + 1 }
        .map(defaultContext()) { $0 * 2 }
        .map(maxStackDepthExecutionContext) { "\($0)" + "!" }
}

func flatMapChain() -> Future<String, BudgetError> {
    fetchCount(1).flatMap { fetchCount($0 + 1) }.map { $0 * 2 }.flatMap { fetchName($0 - 1) }.map { $0 + "?" }
}

func flatMapWithContexts() -> Future<Int, BudgetError> {
    fetchCount(2)
        .flatMap(immediateExecutionContext) { fetchCount($0 * 3) }
        .flatMap(defaultContext()) { count in fetchName(count).map { $0.count + count } }
        .map { $0 % 7 }
}

func recoverChain() -> Future<Int, Never> {
    fetchCount(3).map { $0 + 1 }.recover { _ in 0 }.map { $0 * 2 }
}

func recoverWithChain() -> Future<String, BudgetError> {
    fetchName(1)
        .recoverWith(immediateExecutionContext) { _ in fetchName(2) }
        .map { $0 + "." }
        .recover(defaultContext()) { _ in "anonymous" }
        .promoteError()
}

func zipChain() -> Future<Int, BudgetError> {
    fetchCount(1).zip(fetchCount(2)).map { $0.0 + $0.1 }.zip(fetchName(3)).map { $0.0 + $0.1.count }
}

func andThenChain() -> Future<Int, BudgetError> {
    fetchCount(4)
        .andThen(immediateExecutionContext) { print($0) }
        .map { $0 * 3 }
        .andThen { result in print(result) }
        .map { $0 + 1 }
}

func promiseChain() -> Future<String, BudgetError> {
    let promise = Promise<Int, BudgetError>()
    promise.success(5)
    return promise.future.map { $0 + 1 }.flatMap { fetchName($0 * 2) }.map { $0.uppercased() + "!" }
}

func mixedSixSteps() -> Future<Double, BudgetError> {
    fetchCount(1)
        .map { $0 + 1 }
        .flatMap { fetchCount($0 * 2) }
        .map { Double($0) / 3 }
        .recoverWith { _ in Future(value: 0.5) }
        .map { $0 * 2 + 1 }
        .andThen { print($0) }
}

func annotatedBlocks() -> Future<[String], BudgetError> {
    fetchCount(2)
        .map { (count: Int) -> [Int] in Array(0..<count) }
        .flatMap { (ids: [Int]) -> Future<[String], BudgetError> in ids.traverse { fetchName($0 + 1) } }
        .map { (names: [String]) -> [String] in names.filter { $0.count > 3 } }
}
