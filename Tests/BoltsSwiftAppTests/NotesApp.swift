import BoltsSwift

// A notes app that syncs with a backend, written the way Bolts-Swift clients write one (Parse SDK style):
// a store protocol whose methods return tasks, protocol extensions with default implementations,
// executors passed in as parameters, `TaskCompletionSource`s completed from a queue, continuations that
// state no type, `Task.whenAll` and cancellation through the completion source. It imports only
// `BoltsSwift` (which brings Dispatch and Foundation, as the original's framework did). This directory is compiled twice: by BoltsSwiftAppTests in the Swift 6
// language mode and by BoltsSwiftAppSwift5Tests in Swift 5.

struct Note: Equatable, Sendable {
    let id: String
    var text: String
    var revision: Int
}

enum StoreError: Error, Equatable {
    case notFound(String)
    case conflict(String)
    case offline
    case empty
}

// MARK: - The store

protocol NoteStore: Sendable {
    func fetch(id: String) -> Task<Note>
    func save(_ note: Note) -> Task<Note>
    func delete(id: String) -> Task<Void>
}

extension NoteStore {
    /// The note, or a new empty one saved under `id` when there is none.
    func fetchOrCreate(id: String, executor: Executor = .default) -> Task<Note> {
        fetch(id: id).continueWithTask(executor) { task in
            if let error = task.error as? StoreError, error == .notFound(id) {
                return self.save(Note(id: id, text: "", revision: 0))
            }
            return task
        }
    }

    /// Appends `text` to the note and saves it.
    func append(_ text: String, to id: String, executor: Executor = .default) -> Task<Note> {
        fetchOrCreate(id: id, executor: executor).continueOnSuccessWithTask(executor) { note in
            var updated = note
            updated.text += text
            return self.save(updated)
        }
    }

    /// The note's text; an empty note is an error.
    func text(of id: String, executor: Executor = .default) -> Task<String> {
        fetch(id: id).continueOnSuccessWith(executor) { note in
            guard !note.text.isEmpty else { throw StoreError.empty }
            return note.text
        }
    }

    /// The note's text, or a placeholder when the note is missing or empty; other errors pass through.
    func textOrPlaceholder(of id: String, executor: Executor = .default) -> Task<String> {
        text(of: id, executor: executor).continueOnErrorWith(executor) { error in
            switch error {
            case StoreError.notFound, StoreError.empty: return "(no text)"
            default: throw error
            }
        }
    }

    /// Saves `note`; on a conflict, saves it again over the newest revision.
    func saveResolvingConflict(_ note: Note, executor: Executor = .default) -> Task<Note> {
        save(note).continueOnErrorWithTask(executor) { error in
            guard case StoreError.conflict = error else { throw error }
            return self.fetch(id: note.id).continueOnSuccessWithTask(executor) { newest in
                var rebased = note
                rebased.revision = newest.revision
                return self.save(rebased)
            }
        }
    }

    /// Saves every note; the saved notes in order once all are saved.
    func saveAll(_ notes: [Note]) -> Task<[Note]> {
        Task.whenAllResult(notes.map { save($0) })
    }

    /// Deletes every note; completes once all are deleted.
    func deleteAll(_ ids: [String]) -> Task<Void> {
        Task.whenAll(ids.map { delete(id: $0) })
    }

    /// What the sync screen says about `task`, whatever became of it.
    func status<T>(of task: Task<T>, executor: Executor = .immediate) -> Task<String> {
        task.continueWith(executor) { task in
            if task.cancelled {
                return "cancelled"
            } else if let error = task.error {
                return "failed: \(error)"
            } else {
                return "done"
            }
        }
    }
}

// MARK: - An implementation completing sources from a queue

/// The app's backend: answers on its own serial queue, as the network layer would.
final class RemoteNoteStore: NoteStore, @unchecked Sendable {
    // Safe: `notes`, `offline` and `requests` are only read or written while `lock` is held.
    private let queue = DispatchQueue(label: "notes.backend")
    private let lock = NSLock()
    private var notes: [String: Note]
    private var offline = false
    private var requests = 0

    init(_ notes: [Note] = []) {
        self.notes = Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0) })
    }

    var isOffline: Bool {
        get { lock.withLock { offline } }
        set { lock.withLock { offline = newValue } }
    }

    var requestCount: Int {
        lock.withLock { requests }
    }

    func stored(_ id: String) -> Note? {
        lock.withLock { notes[id] }
    }

    /// Counts a request; `false` when offline.
    private func online() -> Bool {
        lock.withLock {
            requests += 1
            return !offline
        }
    }

    func fetch(id: String) -> Task<Note> {
        let source = TaskCompletionSource<Note>()
        queue.async {
            guard self.online() else {
                source.set(error: StoreError.offline)
                return
            }
            if let note = self.lock.withLock({ self.notes[id] }) {
                source.set(result: note)
            } else {
                source.set(error: StoreError.notFound(id))
            }
        }
        return source.task
    }

    func save(_ note: Note) -> Task<Note> {
        let source = TaskCompletionSource<Note>()
        queue.async {
            guard self.online() else {
                source.set(error: StoreError.offline)
                return
            }
            let saved: Note? = self.lock.withLock {
                if let current = self.notes[note.id], current.revision != note.revision { return nil }
                var next = note
                next.revision += 1
                self.notes[note.id] = next
                return next
            }
            if let saved {
                source.set(result: saved)
            } else {
                source.set(error: StoreError.conflict(note.id))
            }
        }
        return source.task
    }

    func delete(id: String) -> Task<Void> {
        Task.execute(.queue(queue)) {
            guard self.online() else { throw StoreError.offline }
            guard self.lock.withLock({ self.notes.removeValue(forKey: id) }) != nil else {
                throw StoreError.notFound(id)
            }
        }
    }

    /// Another device saves a newer revision of the note.
    func touch(_ id: String) {
        lock.withLock { notes[id]?.revision += 1 }
    }
}

// MARK: - Uploads that can be cancelled

/// Uploads waiting for the network; `cancelAll()` cancels the ones not yet sent.
final class UploadQueue: @unchecked Sendable {
    // Safe: `waiting` is only read or written while `lock` is held.
    private let store: any NoteStore
    private let lock = NSLock()
    private var waiting: [(Note, TaskCompletionSource<Note>)] = []

    init(store: any NoteStore) {
        self.store = store
    }

    var waitingCount: Int {
        lock.withLock { waiting.count }
    }

    /// A task for the upload of `note`, sent at the next `flush()`.
    func enqueue(_ note: Note) -> Task<Note> {
        let source = TaskCompletionSource<Note>()
        lock.withLock { waiting.append((note, source)) }
        return source.task
    }

    /// Sends every waiting upload; each task takes the outcome of its save.
    func flush(executor: Executor = .default) {
        let sending = lock.withLock {
            defer { waiting.removeAll() }
            return waiting
        }
        for (note, source) in sending {
            store.save(note).continueWith(executor) { task in
                if let saved = task.result {
                    source.trySet(result: saved)
                } else if let error = task.error {
                    source.trySet(error: error)
                } else {
                    source.tryCancel()
                }
            }
        }
    }

    /// Cancels every upload not yet sent.
    func cancelAll() {
        let cancelled = lock.withLock {
            defer { waiting.removeAll() }
            return waiting
        }
        for (_, source) in cancelled {
            source.cancel()
        }
    }
}

/// Renders a note in the background; a note marked private renders as cancelled.
func render(_ note: Note, executor: Executor = .default) -> Task<String> {
    Task(executor) {
        guard !note.text.hasPrefix("private:") else { throw CancelledError() }
        return "<p>\(note.text)</p>"
    }
}

/// The note from whichever store has it, asking all at once: the first answer if it is the note, else
/// whatever store has it once all have answered.
func fetchFromAny(_ stores: [any NoteStore], id: String, executor: Executor = .immediate) -> Task<Note> {
    let tasks = stores.map { $0.fetch(id: id) }
    return Task.whenAny(tasks).continueWithTask(executor) { _ in
        if let first = tasks.first(where: { $0.result != nil }) {
            return first
        }
        return Task.whenAll(tasks).continueWithTask(executor) { _ in
            tasks.first { $0.result != nil } ?? Task(error: StoreError.notFound(id))
        }
    }
}

/// An executor of the app's own: counts the closures it runs, and runs each at once.
final class CountingExecutor: Sendable {
    private let counter = RunCounter()

    var runs: Int { counter.value }

    var executor: Executor {
        .closure { work in
            self.counter.increment()
            work()
        }
    }
}

/// A thread-safe count.
final class RunCounter: @unchecked Sendable {
    // Safe: `count` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int {
        lock.withLock { count }
    }
}
