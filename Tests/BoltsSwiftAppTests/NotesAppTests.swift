import BoltsSwift
import Foundation
import FuturesTestSupport
import Testing

// Checks of the notes app (NotesApp.swift): results delivered, errors propagated, cancellation observed.
// Every wait is on a task (`waitUntilCompleted()`, or a continuation on the immediate executor), never a
// sleep.

private let groceries = Note(id: "groceries", text: "milk", revision: 1)
private let ideas = Note(id: "ideas", text: "", revision: 3)

/// `task` once it has completed.
private func completed<T>(_ task: Task<T>) async -> Task<T> {
    await withCheckedContinuation { continuation in
        task.continueWith(.immediate) { done in continuation.resume(returning: done) }
    }
}

@Suite("Bolts-Swift app: the note store", .hangGuard())
struct NotesStoreTests {
    let store = RemoteNoteStore([groceries, ideas])

    @Test func fetchOrCreateSavesANewNoteOnlyWhenMissing() async {
        let existing = await completed(store.fetchOrCreate(id: "groceries"))
        #expect(existing.result == groceries)
        let created = await completed(store.fetchOrCreate(id: "todo", executor: .immediate))
        #expect(created.result == Note(id: "todo", text: "", revision: 1))
        #expect(store.stored("todo") != nil)
        store.isOffline = true
        let offline = await completed(store.fetchOrCreate(id: "other"))
        #expect(offline.error as? StoreError == .offline)
        #expect(store.stored("other") == nil)
    }

    @Test func appendChainsAFetchAndASave() async {
        let queue = DispatchQueue(label: "notes.ui")
        let appended = await completed(store.append(", eggs", to: "groceries", executor: .queue(queue)))
        #expect(appended.result == Note(id: "groceries", text: "milk, eggs", revision: 2))
        let counting = CountingExecutor()
        let fresh = await completed(store.append("first", to: "new", executor: counting.executor))
        #expect(fresh.result?.text == "first")
        // The continueWithTask and the continueOnSuccessWithTask each ran once on the executor.
        #expect(counting.runs == 2)
    }

    @Test func aThrowingContinuationFaultsTheTask() async {
        #expect(await completed(store.text(of: "groceries")).result == "milk")
        #expect(await completed(store.text(of: "ideas", executor: .immediate)).error as? StoreError == .empty)
        #expect(await completed(store.text(of: "nope")).error as? StoreError == .notFound("nope"))
    }

    @Test func continueOnErrorWithRecoversOnlyWhatItHandles() async {
        let operations = OperationQueue()
        #expect(await completed(store.textOrPlaceholder(of: "ideas")).result == "(no text)")
        #expect(
            await completed(store.textOrPlaceholder(of: "nope", executor: .operationQueue(operations))).result
                == "(no text)")
        store.isOffline = true
        #expect(await completed(store.textOrPlaceholder(of: "groceries")).error as? StoreError == .offline)
    }

    @Test func aConflictIsResolvedOverTheNewestRevision() async {
        store.touch("groceries")
        var edited = groceries
        edited.text = "oat milk"
        let saved = await completed(store.saveResolvingConflict(edited))
        #expect(saved.result == Note(id: "groceries", text: "oat milk", revision: 3))
        store.isOffline = true
        let failed = await completed(store.saveResolvingConflict(edited, executor: .immediate))
        #expect(failed.error as? StoreError == .offline)
    }

    @Test func whenAllResultKeepsTheOrderAndWhenAllAggregatesErrors() async {
        let notes = [Note(id: "a", text: "1", revision: 0), Note(id: "b", text: "2", revision: 0)]
        let saved = await completed(store.saveAll(notes))
        #expect(saved.result?.map(\.id) == ["a", "b"])
        #expect(saved.result?.map(\.revision) == [1, 1])
        let deleted = await completed(store.deleteAll(["a", "b"]))
        #expect(deleted.completed && !deleted.faulted && !deleted.cancelled)
        let missing = await completed(store.deleteAll(["a", "groceries", "zzz"]))
        let aggregate = missing.error as? AggregateError
        #expect(aggregate?.errors.compactMap { $0 as? StoreError } == [.notFound("a"), .notFound("zzz")])
        #expect(store.stored("groceries") == nil)
    }

    @Test func theStatusLineReadsEveryOutcome() async {
        #expect(await completed(store.status(of: store.fetch(id: "groceries"))).result == "done")
        #expect(await completed(store.status(of: store.fetch(id: "x"))).result == "failed: notFound(\"x\")")
        #expect(await completed(store.status(of: Task<Int>.cancelledTask())).result == "cancelled")
    }
}

@Suite("Bolts-Swift app: uploads, rendering and executors", .hangGuard())
struct NotesUploadTests {
    @Test func flushedUploadsTakeTheSavesOutcome() async {
        let store = RemoteNoteStore([groceries])
        let uploads = UploadQueue(store: store)
        let fresh = uploads.enqueue(Note(id: "fresh", text: "hi", revision: 0))
        let stale = uploads.enqueue(Note(id: "groceries", text: "stale", revision: 0))
        #expect(uploads.waitingCount == 2)
        #expect(!fresh.completed)
        uploads.flush(executor: .escapingClosure { work in DispatchQueue.global().async(execute: work) })
        #expect(await completed(fresh).result?.revision == 1)
        #expect(await completed(stale).error as? StoreError == .conflict("groceries"))
    }

    @Test func cancelledUploadsAreCancelledAndTheirSuccessContinuationsNeverRun() async {
        let store = RemoteNoteStore()
        let uploads = UploadQueue(store: store)
        let upload = uploads.enqueue(Note(id: "draft", text: "x", revision: 0))
        let ran = RunCounter()
        let next = upload.continueOnSuccessWith(.immediate) { _ in ran.increment() }
        let both = Task.whenAll([upload, Task(groceries)])
        uploads.cancelAll()
        #expect(upload.cancelled)
        #expect(upload.error == nil)
        #expect(await completed(next).cancelled)
        #expect(await completed(both).cancelled)
        #expect(ran.value == 0)
        uploads.flush()
        #expect(store.requestCount == 0)
    }

    @Test func aContinuationThatThrowsCancelledErrorCancels() async {
        let shown = await completed(render(groceries))
        #expect(shown.result == "<p>milk</p>")
        let hidden = await completed(render(Note(id: "p", text: "private: diary", revision: 0), executor: .immediate))
        #expect(hidden.cancelled)
        #expect(!hidden.faulted)
    }

    @Test func whenAnyTakesTheFirstStoreToAnswer() async {
        let empty = RemoteNoteStore()
        let full = RemoteNoteStore([groceries])
        let found = await completed(fetchFromAny([empty, full], id: "groceries"))
        #expect(found.result == groceries)
        let missing = await completed(fetchFromAny([empty], id: "groceries"))
        #expect(missing.error as? StoreError == .notFound("groceries"))
    }

    @Test func waitUntilCompletedBlocksUntilTheQueueAnswers() {
        let store = RemoteNoteStore([groceries])
        let fetched = store.fetch(id: "groceries").continueOnSuccessWith(.queue(.global())) { note in
            note.text.uppercased()
        }
        fetched.waitUntilCompleted()
        #expect(fetched.result == "MILK")
    }

    @Test func executeWithTaskRunsOnTheGivenExecutor() async {
        let store = RemoteNoteStore([groceries])
        let counting = CountingExecutor()
        let task = Task.executeWithTask(counting.executor) {
            store.fetch(id: "groceries")
        }
        #expect(await completed(task).result == groceries)
        #expect(counting.runs == 1)
    }
}
