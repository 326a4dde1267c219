// Ordinary Bolts-Swift chains, as its users write them: each expression must type-check well under
// 100 ms (`-Xfrontend -warn-long-expression-type-checking=100`). Not part of a target; checked against the
// built `BoltsSwift` module (see scripts/check-type-checking.sh).
import BoltsSwift
import Foundation

struct Profile: Sendable { let name: String }
struct ProfileError: Error {}

func fetchProfile(_ user: String) -> Task<Profile> { Task(Profile(name: user)) }
func fetchImage(_ profile: Profile) -> Task<Data> { Task(Data(profile.name.utf8)) }

func chains() {
    // `$0` operators, value blocks.
    _ = Task(1).continueWith { $0.result! + 1 }.continueWith { $0.result! + 1 }.continueWith { $0.result! + 1 }
    _ = Task(1).continueOnSuccessWith { x in x + 1 }.continueOnSuccessWith { x in x * 2 }
        .continueOnSuccessWith { x in x - 3 }
    _ = Task(1).continueOnSuccessWith { $0 + 1 }.continueOnSuccessWith { $0 * 2 }.continueOnSuccessWith { $0 - 3 }
        .continueOnSuccessWith { $0 / 2 }.continueOnSuccessWith { $0 % 5 }.continueOnSuccessWith { $0 + 7 }
    _ = Task("a").continueOnSuccessWith { $0 + "b" }.continueOnSuccessWith { $0 + "c" }
        .continueOnSuccessWith { $0 + "d" }
    _ = Task("a").continueWith { ($0.result ?? "") + "b" }.continueWith { ($0.result ?? "") + "c" }
        .continueWith { ($0.result ?? "") + "d" }.continueWith { $0.result?.count ?? 0 }

    // Named executors, annotated blocks.
    _ = Task(2).continueWith(.immediate) { (task: Task<Int>) -> Int in task.result! * 2 }
        .continueOnSuccessWith(.immediate) { (value: Int) -> String in "\(value)" }
        .continueOnSuccessWith(.default) { (text: String) -> Int in text.count }
    _ = Task(2).continueWith(Executor.queue(.global())) { task in task.result ?? 0 }
        .continueWith(Executor.mainThread) { task in task.result.map { $0 + 1 } }
        .continueWith(.immediate) { task -> Bool in task.result != nil }

    // Tasks returned from blocks.
    _ = fetchProfile("ann").continueOnSuccessWithTask { profile in fetchImage(profile) }
        .continueWith { task -> Data in task.result ?? Data() }
        .continueOnSuccessWith { $0.count }
    _ = Task(1).continueWithTask { task in Task(task.result! + 1) }.continueWithTask { task in Task(task.result! * 2) }
        .continueWithTask { task in Task("\(task.result!)") }
    _ = fetchProfile("bob").continueOnSuccessWithTask { (profile: Profile) -> Task<Data> in fetchImage(profile) }
        .continueOnSuccessWithTask { data in Task(data.count) }
        .continueOnSuccessWith { count in count > 0 }

    // Errors and recovery.
    _ = Task<Int>(error: ProfileError()).continueOnErrorWith { _ in 0 }.continueOnSuccessWith { $0 + 1 }
        .continueOnErrorWith { (_: ProfileError) in -1 }
    _ = Task<Int>(error: ProfileError()).continueOnErrorWithTask { _ in Task(0) }
        .continueOnSuccessWith { value -> Int in
            if value < 0 { throw ProfileError() }
            return value
        }
        .continueWith { $0.error == nil }

    // Gathering.
    _ = Task.whenAll([Task(1), Task(2)]).continueWith { $0.completed }.continueOnSuccessWith { !$0 }
    _ = Task.whenAllResult([Task(1), Task(2)]).continueOnSuccessWith { $0.reduce(0, +) }
        .continueOnSuccessWith { $0 * 2 }
    _ = Task.whenAny(Task(1), Task(2)).continueWith { _ in "any" }.continueOnSuccessWith { $0 + "!" }
    _ = Task<Void>.withDelay(0.01).continueWith { _ in 1 }.continueOnSuccessWith { $0 + 1 }
}
