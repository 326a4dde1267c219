import BoltsSwift
import Foundation
import Testing

// Bolts-Swift's README, as its users write it, against small stand-ins for the Parse types it uses.
// Where the README's own text does not compile against Bolts-Swift either, the test says so and uses the
// spelling Bolts-Swift's API has.

private final class PFObject: Sendable {
    let name: String
    init(name: String) { self.name = name }

    /// A callback API, as Parse's: calls `block` later, on another thread.
    func fetchInBackgroundWithBlock(_ block: @escaping @Sendable (PFObject?, NSError?) -> Void) {
        DispatchQueue.global().async { block(self, nil) }
    }
}

private struct PFQuery: Sendable {
    let className: String
}

private struct Image: Sendable, Equatable {
    let name: String
}

private func ProfileImagePlaceholder() -> Image { Image(name: "placeholder") }

private func save(_ object: PFObject) -> Task<PFObject> {
    Task(.queue(.global())) { object }
}

private func fetchProfile(_ user: String) -> Task<PFObject> {
    Task(PFObject(name: user))
}

private func fetchProfileImage(_ profile: PFObject) -> Task<Image> {
    profile.name.isEmpty ? Task(error: NSError(domain: "profile", code: 404)) : Task(Image(name: profile.name))
}

private func find(_ query: PFQuery) -> Task<[PFObject]> {
    Task([PFObject(name: "\(query.className) 1"), PFObject(name: "\(query.className) 2")])
}

@Suite("BoltsSwift: the README's examples")
struct ReadmeExamplesTests {
    private let deleted = Recorder<String>()

    private func deleteComment(_ comment: PFObject) -> Task<PFObject> {
        deleted.append(comment.name)
        return Task(comment)
    }

    @Test func continueWith() throws {
        let object = PFObject(name: "post")
        let seen = Recorder<String>()
        let done = save(object).continueWith { task in
            if task.cancelled {
                // Save was cancelled
                seen.append("cancelled")
            } else if task.faulted {
                // Save failed
                seen.append("failed")
            } else {
                // Object was successfully saved
                let result = task.result
                seen.append(result!.name)
            }
        }
        done.waitUntilCompleted()
        #expect(seen.values == ["post"])
    }

    @Test func continueOnSuccessWith() throws {
        let object = PFObject(name: "post")
        let saved = save(object).continueOnSuccessWith { result in
            // Closure receives the result of a succesfully performed task
            // If result is invalid throw an error which will mark task as faulted
            if result.name.isEmpty { throw NSError(domain: "save", code: 1) }
            return result.name
        }
        saved.waitUntilCompleted()
        #expect(saved.result == "post")
    }

    /// The README names the success closure's parameter `task` and reads `task.result`, which does not
    /// compile against Bolts-Swift either (the closure receives the result): written here as it compiles.
    @Test func continueOnSuccessWithTask() throws {
        let user = "ann"
        let image = fetchProfile(user).continueOnSuccessWithTask { profile in
            return fetchProfileImage(profile)
        }.continueWith { task in
            if let image = task.result {
                return image
            }
            return ProfileImagePlaceholder()
        }
        #expect(image.result == Image(name: "ann"))

        let placeholder = fetchProfile("").continueOnSuccessWithTask { profile in
            return fetchProfileImage(profile)
        }.continueWith { task in
            if let image = task.result {
                return image
            }
            return ProfileImagePlaceholder()
        }
        #expect(placeholder.result == ProfileImagePlaceholder())
    }

    /// The README calls `setError(_:)` and `setResult(_:)`, names Bolts-Swift never had: its
    /// `TaskCompletionSource` has `set(error:)` and `set(result:)`, used here.
    @Test func creatingTasks() throws {
        func fetch(object: PFObject) -> Task<PFObject> {
            let taskCompletionSource = TaskCompletionSource<PFObject>()
            object.fetchInBackgroundWithBlock { (object: PFObject?, error: NSError?) in
                if let error = error {
                    taskCompletionSource.set(error: error)
                } else if let object = object {
                    taskCompletionSource.set(result: object)
                } else {
                    taskCompletionSource.cancel()
                }
            }
            return taskCompletionSource.task
        }
        let task = fetch(object: PFObject(name: "user"))
        task.waitUntilCompleted()
        #expect(task.result?.name == "user")
    }

    @Test func tasksInParallel() throws {
        let query = PFQuery(className: "Comments")
        let allDeleted = find(query).continueWithTask { task in
            var tasks: [Task<PFObject>] = []
            task.result?.forEach { comment in
                tasks.append(self.deleteComment(comment))
            }
            return Task.whenAll(tasks)
        }.continueOnSuccessWith { task in
            // All comments were deleted
        }
        allDeleted.waitUntilCompleted()
        #expect(allDeleted.completed && !allDeleted.faulted && !allDeleted.cancelled)
        #expect(deleted.values == ["Comments 1", "Comments 2"])
    }

    @Test func taskExecutors() async throws {
        func fetch(_ object: PFObject) -> Task<PFObject> { Task(object) }
        let object = PFObject(name: "user")
        let seen = Recorder<String>()
        let onMain = fetch(object).continueWith(Executor.mainThread) { task in
            // This closure will be executor on the main application's thread
            seen.append(task.result!.name)
        }
        // On Linux under `swift test` the main queue is drained by a worker thread (see the migration
        // article); the closure still runs on the main queue.
        try await onMain.future.get()
        #expect(seen.values == ["user"])
    }
}
