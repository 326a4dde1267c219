// Type-checking budget for the BrightFutures face (`import BrightFutures`): BrightFutures code as its
// users write it — operators in `$0` blocks, explicit contexts, futures returned from blocks, module-
// qualified names, 3–6 steps. Not part of any target: type-checked by scripts/check-type-checking.sh.
import BrightFutures

enum BrightBudgetError: Error {
    case failed
}

func logIn(_ name: String) -> Future<Int, BrightBudgetError> {
    Future(value: name.count)
}

func fetchPosts(_ user: Int) -> Future<[String], BrightBudgetError> {
    Future(value: Array(repeating: "post", count: user))
}

func brightMapChain() -> Future<Int, BrightBudgetError> {
    logIn("ada").map { $0 + 1 }.map { $0 * 2 }.map { $0 - 3 }.map { $0 % 5 }
}

func brightFlatMapChain() -> Future<Int, BrightBudgetError> {
    logIn("ada").flatMap { fetchPosts($0 + 1) }.map { $0.count * 2 }.flatMap { logIn("\($0)") }.map { $0 + 1 }
}

func brightContexts() -> Future<String, BrightBudgetError> {
    logIn("grace")
        .map(immediateExecutionContext) { $0 * 3 }
        .andThen(context: defaultContext()) { print($0) }
        .flatMap(maxStackDepthExecutionContext) { fetchPosts($0) }
        .map { $0.joined(separator: ",") + "." }
}

func brightRecover() -> Future<Int, Never> {
    logIn("linus").map { $0 + 1 }.recoverWith { _ in logIn("anonymous") }.recover { _ in 0 }.map { $0 * 2 }
}

func brightRecoverInContexts() -> Future<Int, Never> {
    logIn("linus")
        .recoverWith(context: immediateExecutionContext) { _ in logIn("anonymous") }
        .map { $0 + 1 }
        .recover(context: defaultContext()) { _ in 0 }
        .map { $0 * 2 }
}

func brightZip() -> Future<Int, BrightBudgetError> {
    logIn("a").zip(logIn("bb")).map { $0.0 + $0.1 }.zip(fetchPosts(1)).map { $0.0 + $0.1.count }
}

func brightModuleQualified() -> BrightFutures.Future<Int, BrightBudgetError> {
    BrightFutures.materialize { (done: @escaping @Sendable (Int?, BrightBudgetError?) -> Void) in done(1, nil) }
        .map { $0 + 1 }
        .flatMap { logIn("\($0 * 2)") }
        .map { $0 - 1 }
}

func brightSequence() -> Future<Int, BrightBudgetError> {
    [logIn("a"), logIn("b"), logIn("c")].sequence().map { $0.reduce(0, +) }.map { $0 * 2 }.map { $0 + 1 }
}
