// Type-checking budget for `BFTask` (`import Bolts`): the chains of the issue and the shapes of the
// Bolts guide — continuation blocks that receive the task, operators in `$0` blocks, annotated blocks,
// tasks returned from blocks, executors and tokens, 3–6 steps. Not part of any target: type-checked by
// scripts/check-type-checking.sh with a per-expression budget.
import Bolts

struct BudgetStudent: Sendable {
    var name: String
    var valedictorian = false
}

func findAsync() -> BFTask<[BudgetStudent]> {
    BFTask(result: [BudgetStudent(name: "Ada"), BudgetStudent(name: "Grace")])
}

func saveAsync(_ student: BudgetStudent) -> BFTask<BudgetStudent> {
    BFTask(result: student)
}

func numberAsync(_ value: Int) -> BFTask<Int> {
    BFTask(result: value)
}

func continueWithChain() {
    let task = BFTask(result: 1).continueWith { $0.result! + 1 }.continueWith { $0.result! + 1 }
        .continueWith { $0.result! + 1 }
    _ = task
}

func successChain() {
    let task = BFTask(result: 1).continueOnSuccessWith { $0.result! + 1 }.continueOnSuccessWith { $0.result! * 2 }
        .continueOnSuccessWith { $0.result! - 3 }
    _ = task
}

func stringChain() {
    let task = BFTask(result: "a").continueOnSuccessWith { $0.result! + "b" }
        .continueOnSuccessWith { $0.result! + "b" }.continueOnSuccessWith { $0.result! + "b" }
    _ = task
}

func namedTaskChain() -> BFTask<String> {
    numberAsync(1)
        .continueOnSuccessWith { task in task.result! * 2 }
        .continueWith { task in task.error == nil ? task.result! + 1 : 0 }
        .continueOnSuccessWith { task in "\(task.result!)" + "!" }
}

func tasksReturnedFromBlocks() -> BFTask<Int> {
    numberAsync(1)
        .continueOnSuccessWithTask { numberAsync($0.result! + 1) }
        .continueOnSuccessWithTask { numberAsync($0.result! * 2) }
        .continueWith { $0.result! - 3 }
        .continueOnSuccessWithTask { task in numberAsync(task.result! + 4) }
}

func guideChainingTasks() -> BFTask<(any Sendable)?> {
    findAsync().continueOnSuccessWithTask { (task: BFTask<[BudgetStudent]>) -> BFTask<BudgetStudent> in
        var valedictorian = task.result![0]
        valedictorian.valedictorian = true
        return saveAsync(valedictorian)
    }.continueOnSuccessWithTask { (task: BFTask<BudgetStudent>) -> BFTask<[BudgetStudent]> in
        findAsync()
    }.continueOnSuccessWithTask { (task: BFTask<[BudgetStudent]>) -> BFTask<BudgetStudent> in
        saveAsync(task.result![1])
    }.continueOnSuccessWith { (task: BFTask<BudgetStudent>) -> (any Sendable)? in
        nil
    }
}

func guideErrorHandling() -> BFTask<String> {
    findAsync().continueOnSuccessWithTask { task -> BFTask<[BudgetStudent]> in
        BFTask(error: CancellationError())
    }.continueWithTask { task -> BFTask<BudgetStudent?> in
        if task.error != nil {
            return BFTask(result: nil)
        }
        return saveAsync(task.result![1]).continueWith { $0.result }
    }.continueOnSuccessWith { task in
        task.result! == nil ? "handled" : "saved"
    }
}

func guideSeriesAndParallel(_ ids: [Int]) -> BFTask<Void> {
    numberAsync(0).continueWithTask { (task: BFTask<Int>) -> BFTask<Void> in
        var series = BFTask(result: ())
        for id in ids {
            series = series.continueWithTask { _ in numberAsync(id).continueWith { _ in () } }
        }
        return series
    }.continueWithTask { (task: BFTask<Void>) -> BFTask<Void> in
        BFTask(forCompletionOfAllTasks: ids.map { numberAsync($0) })
    }
}

func executorsAndTokens(_ token: BFCancellationToken) -> BFTask<Int> {
    numberAsync(2)
        .continueWith(executor: .immediate) { $0.result! * 2 }
        .continueOnSuccessWith(executor: .default, block: { $0.result! + 1 }, cancellationToken: token)
        .continueWith(cancellationToken: token) { $0.result! - 1 }
        .continueOnErrorWith { _ in 0 }
}

func fourToSixOperatorSteps() {
    let four = BFTask(result: 2).continueWith { $0.result! * 2 }.continueWith { $0.result! + 1 }
        .continueWith { $0.result! - 1 }.continueWith { $0.result! * 3 }
    let six = BFTask(result: 2).continueWith { $0.result! * 2 }.continueWith { $0.result! + 1 }
        .continueWith { $0.result! - 1 }.continueWith { $0.result! * 3 }.continueOnSuccessWith { $0.result! + 1 }
        .continueOnSuccessWith { $0.result! / 2 }
    _ = (four, six)
}

func literalTaskThenOperators() {
    let task = BFTask(result: 1).continueWithTask { _ in BFTask(result: 2) }.continueWith { $0.result! * 2 }
        .continueWith { $0.result! + 1 }.continueWith { $0.result! - 1 }.continueOnSuccessWith { $0.result! % 5 }
    _ = task
}
