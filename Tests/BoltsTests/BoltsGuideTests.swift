import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

// Every example of the Bolts `BFTask` guide (seed 002), written in modern Swift against a small fake
// Parse backend whose calls complete on a background queue, as the real ones did.

/// A Parse-style object: a student with a GPA and two flags to set.
struct Student: Sendable, Equatable {
    let name: String
    let gpa: Double
    var valedictorian = false
    var salutatorian = false
}

/// A comment on a blog post.
struct Comment: Sendable, Equatable {
    let id: Int
    let post: Int
}

struct BackendError: Error, Equatable {
    let domain: String
    let code: Int
}

/// The guide's `findAsync:`, `saveAsync:`, `deleteAsync:` and callback-style `fetchInBackgroundWithBlock:`.
final class FakeBackend: Sendable {
    let students = LockedBox<[String: Student]>([:])
    let comments = LockedBox<[Comment]>([])
    let deleted = Recorder<Int>()
    let saves = Counter()
    let deletesInFlight = Counter()
    let maxDeletesInFlight = Counter()
    /// While set, deletes wait for it (to show they all started before any finished).
    let deleteGate = LockedBox<BFTask<Void>?>(nil)
    private let queue = DispatchQueue(label: "fake.backend", attributes: .concurrent)

    init(students: [Student] = [], comments: [Comment] = []) {
        self.students.value = Dictionary(uniqueKeysWithValues: students.map { ($0.name, $0) })
        self.comments.value = comments
    }

    /// Runs `work` on the backend's queue and returns a task for its outcome.
    private func async<T>(_ work: @escaping @Sendable () throws -> T) -> BFTask<T> {
        BFTask(executor: BFExecutor(dispatchQueue: queue), block: work)
    }

    /// `PFQuery(className: "Student").orderByDescending("gpa")`.
    func findStudentsByGPA() -> BFTask<[Student]> {
        async { self.students.value.values.sorted { $0.gpa > $1.gpa } }
    }

    func saveAsync(_ student: Student) -> BFTask<Student> {
        async {
            self.saves.increment()
            self.students.withValue { $0[student.name] = student }
            return student
        }
    }

    /// `PFQuery(className: "Comments").whereKey("post", equalTo: post)`.
    func findComments(post: Int) -> BFTask<[Comment]> {
        async { self.comments.value.filter { $0.post == post } }
    }

    func deleteAsync(_ comment: Comment) -> BFTask<Void> {
        let inFlight = deletesInFlight.increment()
        maxDeletesInFlight.withMax(inFlight)
        let gate = deleteGate.value ?? BFTask(result: ())
        return gate.continueWith(executor: BFExecutor(dispatchQueue: queue)) { _ in
            self.comments.withValue { $0.removeAll { $0 == comment } }
            self.deleted.append(comment.id)
            self.deletesInFlight.decrement()
        }
    }

    /// A callback API, as Parse's `fetchInBackgroundWithBlock:`.
    func fetchInBackground(name: String, block: @escaping @Sendable (Student?, (any Error)?) -> Void) {
        queue.async {
            if let student = self.students.value[name] {
                block(student, nil)
            } else {
                block(nil, BackendError(domain: "example.com", code: 404))
            }
        }
    }
}

extension Counter {
    /// Raises the counter to `candidate` if that is larger.
    func withMax(_ candidate: Int) {
        while true {
            let current = value
            if candidate <= current { return }
            if increment(by: candidate - current) == candidate { return }
            decrement()
        }
    }
}

@Suite("Bolts guide: every example of the BFTask guide, in modern Swift")
struct BoltsGuideTests {
    let backend = FakeBackend(
        students: [
            Student(name: "Ada", gpa: 3.9), Student(name: "Grace", gpa: 4.0), Student(name: "Linus", gpa: 3.1),
        ],
        comments: [
            Comment(id: 1, post: 123), Comment(id: 2, post: 123), Comment(id: 3, post: 7), Comment(id: 4, post: 123),
        ])

    // MARK: The continueWithBlock method

    @Test func continueWithInspectsTheOutcomeOfASave() async throws {
        let outcome = backend.saveAsync(Student(name: "Alan", gpa: 3.5)).continueWith { task -> String in
            if task.isCancelled {
                return "the save was cancelled"
            } else if let error = task.error {
                return "the save failed: \(error)"
            } else {
                let object = task.result!
                return "saved \(object.name)"
            }
        }
        #expect(try await outcome.get() == "saved Alan")
    }

    @Test func aContinuationTurnsANumberTaskIntoAStringTask() async throws {
        func getNumberAsync() -> BFTask<Int> { BFTask(executor: BFExecutor(dispatchQueue: .global())) { 42 } }
        func getStringAsync() -> BFTask<String> {
            // This continuation block takes the number task as input and provides a string as output.
            getNumberAsync().continueWith { task in "\(task.result!)" }
        }
        #expect(try await getStringAsync().get() == "42")
    }

    @Test func continueOnSuccessWithRunsOnlyWhenTheSaveSucceeded() async throws {
        let saved = backend.saveAsync(Student(name: "Alan", gpa: 3.5)).continueOnSuccessWith { succeeded in
            let object = succeeded.result!
            // the object was saved successfully.
            return object.name
        }
        #expect(try await saved.get() == "Alan")
    }

    // MARK: Chaining tasks together

    @Test func chainingTasksMarksTheValedictorianAndTheSalutatorianWithoutNesting() async throws {
        // A block that returns a task goes to the `…Task` form: the chain goes on once that task is done.
        let done = backend.findStudentsByGPA().continueOnSuccessWithTask { succeeded -> BFTask<Student> in
            let students = succeeded.result!
            var valedictorian = students[0]
            valedictorian.valedictorian = true
            return self.backend.saveAsync(valedictorian)
        }.continueOnSuccessWithTask { _ in
            self.backend.findStudentsByGPA()
        }.continueOnSuccessWithTask { succeeded -> BFTask<Student> in
            let students = succeeded.result!
            #expect(students[0].valedictorian, "the find ran once the first save was done")
            var salutatorian = students[1]
            salutatorian.salutatorian = true
            return self.backend.saveAsync(salutatorian)
        }.continueOnSuccessWith { _ in
            // Everything is done!
            "everything is done"
        }
        #expect(try await done.get() == "everything is done")
        let students = backend.students.value
        #expect(students["Grace"]?.valedictorian == true)
        #expect(students["Ada"]?.salutatorian == true)
        #expect(backend.saves.value == 2)
    }

    // MARK: Error handling

    @Test func oneErrorHandlerAtTheEndOfTheChainCatchesTheFailure() async throws {
        let skipped = Counter()
        let handled = LockedBox<BackendError?>(nil)
        let done = backend.findStudentsByGPA().continueOnSuccessWithTask { succeeded -> BFTask<Student> in
            let students = succeeded.result!
            var valedictorian = students[0]
            valedictorian.valedictorian = true
            // Force this callback to fail.
            return BFTask(error: BackendError(domain: "example.com", code: -1))
        }.continueOnSuccessWithTask { _ -> BFTask<[Student]> in
            // Now this continuation will be skipped.
            skipped.increment()
            return self.backend.findStudentsByGPA()
        }.continueWithTask { task -> BFTask<Student?> in
            if let error = task.error {
                // This error handler WILL be called; the error is the one returned above.
                // Handle it by returning a new value: the task completes with nil.
                handled.value = error as? BackendError
                return BFTask(result: nil)
            }
            // This will also be skipped.
            skipped.increment()
            var salutatorian = task.result![1]
            salutatorian.salutatorian = true
            return self.backend.saveAsync(salutatorian).continueOnSuccessWith { Optional($0.result!) }
        }.continueOnSuccessWith { succeeded in
            let result = succeeded.result!
            // Everything is done! This gets called; the task's result is nil.
            return result == nil ? "done with nil" : "done with a student"
        }
        #expect(try await done.get() == "done with nil")
        #expect(handled.value == BackendError(domain: "example.com", code: -1))
        #expect(skipped.value == 0)
        #expect(backend.saves.value == 0)
    }

    // MARK: Creating tasks

    /// The guide's `fetchAsync:`: a callback API wrapped with a completion source.
    func fetchAsync(_ name: String) -> BFTask<Student> {
        let source = BFTaskCompletionSource<Student>()
        backend.fetchInBackground(name: name) { object, error in
            if let object {
                source.set(result: object)
            } else {
                source.set(error: error!)
            }
        }
        return source.task
    }

    @Test func aCompletionSourceTurnsACallbackAPIIntoATask() async throws {
        #expect(try await fetchAsync("Ada").get().gpa == 3.9)
        await #expect(throws: BackendError(domain: "example.com", code: 404)) {
            try await fetchAsync("Nobody").get()
        }
    }

    // MARK: Tasks in series

    @Test func deletingEveryCommentInSeriesOneAfterTheOther() async throws {
        let done = backend.findComments(post: 123).continueWithTask { task -> BFTask<Void> in
            let results = task.result!
            // Create a trivial completed task as a base case.
            var series = BFTask(result: ())
            for result in results {
                // For each item, extend the task with a function to delete the item.
                series = series.continueWithTask { _ in self.backend.deleteAsync(result) }
            }
            return series
        }.continueWith { _ in
            // Every comment was deleted.
            "every comment was deleted"
        }
        #expect(try await done.get() == "every comment was deleted")
        #expect(backend.deleted.values == [1, 2, 4], "in list order")
        #expect(backend.maxDeletesInFlight.value == 1, "one at a time")
        #expect(backend.comments.value == [Comment(id: 3, post: 7)])
    }

    // MARK: Tasks in parallel

    @Test func deletingEveryCommentInParallel() async throws {
        let gate = BFTaskCompletionSource<Void>()
        backend.deleteGate.value = gate.task
        let allStarted = BFTaskCompletionSource<Void>()
        let done = backend.findComments(post: 123).continueWithTask { task -> BFTask<Void> in
            // Collect one task for each delete into an array, starting each delete immediately.
            let tasks = task.result!.map { self.backend.deleteAsync($0) }
            allStarted.set(result: ())
            // A task that completes when all of the deletes are finished.
            return BFTask(forCompletionOfAllTasks: tasks)
        }.continueWith { _ in
            // Every comment was deleted.
            "every comment was deleted"
        }
        try await allStarted.task.get()
        #expect(backend.deletesInFlight.value == 3, "all three deletes run at once")
        gate.set(result: ())
        #expect(try await done.get() == "every comment was deleted")
        #expect(Set(backend.deleted.values) == [1, 2, 4])
    }

    // MARK: Task executors

    @Test func aCustomExecutorThatDispatchesToTheMainQueue() async throws {
        let myExecutor = BFExecutor { block in DispatchQueue.main.async(execute: block) }
        let text = fetchAsync("Ada").continueWith(executor: myExecutor) { task in
            (name: task.result!.name, onMainQueue: isOnMainQueue())
        }
        let (name, onMainQueue) = try await text.get()
        #expect(name == "Ada" && onMainQueue)
    }

    @Test func theBuiltInMainThreadExecutor() async throws {
        let text = fetchAsync("Grace").continueWith(executor: .mainThread) { task in
            (name: task.result!.name, onMainQueue: isOnMainQueue(), onMainThread: Thread.isMainThread)
        }
        let (name, onMainQueue, onMainThread) = try await text.get()
        #expect(name == "Grace" && onMainQueue)
        if await mainQueueRunsOnMainThread() {
            #expect(onMainThread)
        }
    }

    @Test func aDispatchQueueExecutorAndAnOperationQueueExecutor() async throws {
        let queue = DispatchQueue(label: "guide.queue")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let operations = OperationQueue()
        operations.name = "guide.operations"
        let both = fetchAsync("Linus").continueWith(executor: BFExecutor(dispatchQueue: queue)) { task in
            (task.result!.name, DispatchQueue.getSpecific(key: key) == true)
        }.continueOnSuccessWith(executor: BFExecutor(operationQueue: operations)) { task in
            (task.result!.0, task.result!.1, OperationQueue.current === operations)
        }
        let (name, onQueue, onOperationQueue) = try await both.get()
        #expect(name == "Linus" && onQueue && onOperationQueue)
    }

    // MARK: Task cancellation

    /// The guide's `doSomethingComplicatedAsync:`: checks the token in its continuation.
    func doSomethingComplicatedAsync(_ cancellationToken: BFCancellationToken, firstStep: BFTask<Int>) -> BFTask<String>
    {
        firstStep.continueWithTask { task in
            if cancellationToken.isCancellationRequested {
                return BFTask<String>.cancelled()
            }
            // Do something that takes a while.
            return BFTask(result: "result \(task.result!)")
        }
    }

    @Test func aCancellationTokenStopsAComplicatedOperation() async throws {
        let cancellationTokenSource = BFCancellationTokenSource()
        let firstStep = BFTaskCompletionSource<Int>()
        let work = doSomethingComplicatedAsync(cancellationTokenSource.token, firstStep: firstStep.task)
        // When you get bored...
        cancellationTokenSource.cancel()
        firstStep.set(result: 1)
        #expect(work.isCancelled)

        let untouched = BFCancellationTokenSource()
        let finished = doSomethingComplicatedAsync(untouched.token, firstStep: BFTask(result: 2))
        #expect(try await finished.get() == "result 2")
    }

    @Test func boltsLaterAddedTheTokenToContinueWithItself() async {
        let source = BFCancellationTokenSource()
        let ran = Counter()
        let firstStep = BFTaskCompletionSource<Int>()
        let work = firstStep.task.continueWith(cancellationToken: source.token) { _ in ran.increment() }
        source.cancel()
        firstStep.set(result: 1)
        #expect(work.isCancelled && ran.value == 0)
    }
}

/// The guide's Swift examples in their original shape: blocks that receive the task
/// (`(task: BFTask!) -> … in task.result …`), Objective-C Bolts' method names as Swift imports them
/// (`continueWithBlock:` → `continueWith(block:)`, `continueWithSuccessBlock:` →
/// `continueOnSuccessWith(block:)`). Only the modern Swift spelling differs: typed tasks
/// (`BFTask<[Student]>` for `BFTask!`), properties for getters (`task.result!` for
/// `task.result() as NSArray`), `(any Sendable)?` for `AnyObject!`, `Void` for a block that returns
/// nothing, `task.error != nil` for `if task.error()`.
@Suite("Bolts guide: the Swift examples in their original shape (the block receives the task)")
struct BoltsGuideOriginalShapeTests {
    let backend = FakeBackend(
        students: [
            Student(name: "Ada", gpa: 3.9), Student(name: "Grace", gpa: 4.0), Student(name: "Linus", gpa: 3.1),
        ],
        comments: [
            Comment(id: 1, post: 123), Comment(id: 2, post: 123), Comment(id: 3, post: 7), Comment(id: 4, post: 123),
        ])

    // MARK: The continueWithBlock method

    @Test func continueWithBlockInspectsTheTask() async throws {
        let outcome = Recorder<String>()
        let done = backend.saveAsync(Student(name: "Alan", gpa: 3.5)).continueWith {
            (task: BFTask<Student>) -> Void in
            if task.isCancelled {
                // the save was cancelled.
                outcome.append("cancelled")
            } else if task.error != nil {
                // the save failed.
                outcome.append("failed")
            } else {
                // the object was saved successfully.
                let object = task.result!
                outcome.append("saved \(object.name)")
            }
        }
        try await done.get()
        #expect(outcome.values == ["saved Alan"])
    }

    @Test func getStringAsyncTakesTheNumberTaskAsInput() async throws {
        func getNumberAsync() -> BFTask<Int> { BFTask(executor: BFExecutor(dispatchQueue: .global())) { 42 } }
        // Gets a string asynchronously.
        func getStringAsync() -> BFTask<String> {
            // Let's suppose getNumberAsync returns a BFTask whose result is a number.
            return getNumberAsync().continueWith {
                (task: BFTask<Int>) -> String in
                // This continuation block takes the number task as input,
                // and provides a string as output.
                let number = task.result!
                return String(format: "%d", number)
            }
        }
        #expect(try await getStringAsync().get() == "42")
    }

    @Test func continueWithSuccessBlockReceivesTheTask() async throws {
        let done = backend.saveAsync(Student(name: "Alan", gpa: 3.5)).continueOnSuccessWith {
            (task: BFTask<Student>) -> (any Sendable)? in
            // the object was saved successfully.
            return nil
        }
        #expect(try await done.get() == nil)
        let named = backend.saveAsync(Student(name: "Mary", gpa: 3.2)).continueOnSuccessWith(block: { task in
            task.result!.name
        })
        #expect(try await named.get() == "Mary")
    }

    // MARK: Chaining tasks together

    @Test func chainingTasksTogether() async throws {
        let done = backend.findStudentsByGPA().continueOnSuccessWithTask {
            (task: BFTask<[Student]>) -> BFTask<Student> in
            let students = task.result!
            var valedictorian = students[0]
            valedictorian.valedictorian = true
            return self.backend.saveAsync(valedictorian)
        }.continueOnSuccessWithTask {
            (task: BFTask<Student>) -> BFTask<[Student]> in
            let valedictorian = task.result!
            #expect(valedictorian.valedictorian)
            return self.backend.findStudentsByGPA()
        }.continueOnSuccessWithTask {
            (task: BFTask<[Student]>) -> BFTask<Student> in
            let students = task.result!
            var salutatorian = students[1]
            salutatorian.salutatorian = true
            return self.backend.saveAsync(salutatorian)
        }.continueOnSuccessWith {
            (task: BFTask<Student>) -> (any Sendable)? in
            // Everything is done!
            return nil
        }
        #expect(try await done.get() == nil)
        #expect(backend.students.value["Grace"]?.valedictorian == true)
        #expect(backend.students.value["Ada"]?.salutatorian == true)
    }

    // MARK: Error handling

    @Test func errorHandling() async throws {
        let skipped = Counter()
        let handled = Counter()
        let done = backend.findStudentsByGPA().continueOnSuccessWithTask {
            (task: BFTask<[Student]>) -> BFTask<[Student]> in
            let students = task.result!
            var valedictorian = students[0]
            valedictorian.valedictorian = true
            // Force this callback to fail.
            return BFTask(error: NSError(domain: "example.com", code: -1, userInfo: nil))
        }.continueOnSuccessWithTask {
            (task: BFTask<[Student]>) -> BFTask<[Student]> in
            // Now this continuation will be skipped.
            skipped.increment()
            return self.backend.findStudentsByGPA()
        }.continueWithTask {
            (task: BFTask<[Student]>) -> BFTask<Student?> in
            if let error = task.error {
                // This error handler WILL be called.
                // The error will be the NSError returned above.
                // Let's handle the error by returning a new value.
                // The task will be completed with nil as its value.
                let nsError = error as NSError
                if nsError.domain == "example.com" && nsError.code == -1 { handled.increment() }
                return BFTask(result: nil)
            }
            // This will also be skipped.
            skipped.increment()
            var salutatorian = task.result![1]
            salutatorian.salutatorian = true
            return self.backend.saveAsync(salutatorian).continueWith { (task: BFTask<Student>) in task.result }
        }.continueOnSuccessWith {
            (task: BFTask<Student?>) -> String in
            // Everything is done! This gets called.
            // The task's result is nil.
            return task.result! == nil ? "done with nil" : "done with a student"
        }
        #expect(try await done.get() == "done with nil")
        #expect(handled.value == 1 && skipped.value == 0)
    }

    // MARK: Creating tasks

    func fetchAsync(_ object: String) -> BFTask<Student> {
        let task = BFTaskCompletionSource<Student>()
        backend.fetchInBackground(name: object) {
            (object: Student?, error: (any Error)?) -> Void in
            if error == nil {
                task.set(result: object!)
            } else {
                task.set(error: error!)
            }
        }
        return task.task
    }

    @Test func fetchAsyncWithACompletionSource() async throws {
        #expect(try await fetchAsync("Linus").get().gpa == 3.1)
        await #expect(throws: BackendError(domain: "example.com", code: 404)) { try await fetchAsync("Nobody").get() }
    }

    // MARK: Tasks in series

    @Test func tasksInSeries() async throws {
        let done = backend.findComments(post: 123).continueWithTask {
            (task: BFTask<[Comment]>) -> BFTask<Void> in
            let results = task.result!

            // Create a trivial completed task as a base case.
            var task = BFTask(result: ())
            for result in results {
                // For each item, extend the task with a function to delete the item.
                task = task.continueWithTask {
                    (task: BFTask<Void>) -> BFTask<Void> in
                    return self.backend.deleteAsync(result)
                }
            }
            return task
        }.continueWith {
            (task: BFTask<Void>) -> (any Sendable)? in
            // Every comment was deleted.
            return nil
        }
        #expect(try await done.get() == nil)
        #expect(backend.deleted.values == [1, 2, 4])
        // The guide's second version: the last block returns nothing.
        let again = backend.findComments(post: 7).continueWithTask {
            (task: BFTask<[Comment]>) -> BFTask<Void> in
            let results = task.result!
            var task = BFTask(result: ())
            for result in results {
                task = task.continueWithTask { (task: BFTask<Void>) -> BFTask<Void> in self.backend.deleteAsync(result)
                }
            }
            return task
        }.continueWith {
            (task: BFTask<Void>) -> Void in
            // Every comment was deleted.
        }
        try await again.get()
        #expect(backend.deleted.values == [1, 2, 4, 3])
    }

    // MARK: Tasks in parallel

    @Test func tasksInParallel() async throws {
        let done = backend.findComments(post: 123).continueWithTask {
            (task: BFTask<[Comment]>) -> BFTask<Void> in
            // Collect one task for each delete into an array.
            var tasks: [BFTask<Void>] = []
            let results = task.result!
            for result in results {
                // Start this delete immediately and add its task to the list.
                tasks.append(self.backend.deleteAsync(result))
            }
            // Return a new task that will be marked as completed when all of the deletes are finished.
            return BFTask(forCompletionOfAllTasks: tasks)
        }.continueWith {
            (task: BFTask<Void>) -> (any Sendable)? in
            // Every comment was deleted.
            return nil
        }
        #expect(try await done.get() == nil)
        #expect(Set(backend.deleted.values) == [1, 2, 4])
    }

    // MARK: Task executors

    @Test func executors() async throws {
        // Create a BFExecutor that uses the main thread.
        let myExecutor = BFExecutor(block: { block in
            DispatchQueue.main.async(execute: block)
        })
        let text = LockedBox<String?>(nil)
        // And use the main thread executor like this. The executor applies only to the new continuation.
        let first = fetchAsync("Ada").continueWith(
            executor: myExecutor,
            block: {
                (task: BFTask<Student>) -> Void in
                text.value = task.result!.name
            })
        try await first.get()
        #expect(text.value == "Ada")
        // Continue on the main thread, using a built-in executor.
        let second = fetchAsync("Grace").continueWith(
            executor: .mainThread,
            block: {
                (task: BFTask<Student>) -> Void in
                text.value = task.result!.name
            })
        try await second.get()
        #expect(text.value == "Grace")
    }
}
