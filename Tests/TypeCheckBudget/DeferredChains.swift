// Type-checking budget for `Deferred` (`import Futures`): ordinary lazy chains — operators in `$0`
// blocks, deferred steps returned from blocks, 3–6 steps. Not part of any target: type-checked by
// scripts/check-type-checking.sh with a per-expression budget.
import Futures

enum DeferredBudgetError: Error {
    case failed
}

func loadCount(_ page: Int) -> Deferred<Int, DeferredBudgetError> {
    Deferred(starting: { Future(value: page * 10) })
}

func deferredMapChain() -> Deferred<Int, DeferredBudgetError> {
    Deferred<Int, DeferredBudgetError>.unit(1).map { $0 + 1 }.map { $0 * 2 }.map { $0 - 3 }.map { $0 / 2 }
}

func deferredFlatMapChain() -> Deferred<String, DeferredBudgetError> {
    loadCount(1).flatMap { loadCount($0 + 1) }.map { $0 * 2 }.flatMap { .unit("\($0)") }.map { $0 + "!" }
}

func deferredFromFutures() -> Future<Int, DeferredBudgetError> {
    Deferred(starting: { Future<Int, DeferredBudgetError>(value: 3) })
        .map { $0 + 1 }
        .flatMap { count in loadCount(count).map { $0 + count } }
        .mapError { _ in DeferredBudgetError.failed }
        .run()
}

func deferredAnnotated() -> Deferred<[Int], DeferredBudgetError> {
    loadCount(2)
        .map { (count: Int) -> [Int] in Array(0..<count) }
        .flatMap { (values: [Int]) -> Deferred<[Int], DeferredBudgetError> in .unit(values.map { $0 * 2 }) }
        .map { (values: [Int]) -> [Int] in values.filter { $0 > 2 } }
}
