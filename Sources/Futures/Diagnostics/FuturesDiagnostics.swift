import Foundation

/// A misuse the library detected and survived.
public enum FuturesDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// A ``Promise`` was completed after it already had a result. The first result stays.
    case promiseCompletedTwice(file: String, line: UInt)
    /// The `complete` function of ``Future/init(file:line:resolver:)`` was called again. The first
    /// result stays.
    case futureCompletedTwice(file: String, line: UInt)
    /// A ``Promise`` created at `file`:`line` was deallocated before it was completed.
    ///
    /// The drop's only report: where the failure type allows, its future fails with
    /// ``FuturesError/brokenPromise``, and that failure is not reported again as an
    /// ``unobservedFailure(type:error:file:line:trace:)``, whether or not anyone looks at it.
    case promiseDropped(type: String, file: String, line: UInt)
    /// An ``ExecutionContext`` ran a task it was given a second time. The callback ran once, at the
    /// first run; the second run did nothing.
    case contextRanTaskTwice
    /// A future of type `type` failed with `error` (its description) and was deallocated without anyone
    /// looking at its failure: no callback, no `get()`, no derived future, no `forced()`, no read of
    /// `result`. `file` and `line` are where its ``Promise`` (or its ``Future/init(file:line:resolver:)``) was created, when it had one and the library
    /// is built for debugging (else `nil`). `trace` is its failure trace — the steps the failure went
    /// through, from where it started — when failure tracing
    /// (``FuturesDiagnostics/failureTracing``) or pending-future tracking was on as the future was made
    /// (else `nil`).
    /// See ``FuturesDiagnostics/unobservedFailures``.
    case unobservedFailure(type: String, error: String, file: String?, line: UInt?, trace: FailureTrace? = nil)
    /// A block given at `file`:`line` to a continuation that takes a value returned a task, so the new
    /// task, of type `type`, holds that task as its value and does not wait for it (a face's value form
    /// whose task-returning form is `use`). The call goes on as written; write `use` to chain instead.
    case nestedTask(type: String, use: String, file: String, line: UInt)

    /// The kind of the diagnostic, as its case name: `promiseCompletedTwice`, `futureCompletedTwice`,
    /// `promiseDropped`, `contextRanTaskTwice` or `unobservedFailure`. A stable label for logs and metrics.
    public var kind: String {
        switch self {
        case .promiseCompletedTwice: return "promiseCompletedTwice"
        case .futureCompletedTwice: return "futureCompletedTwice"
        case .promiseDropped: return "promiseDropped"
        case .contextRanTaskTwice: return "contextRanTaskTwice"
        case .unobservedFailure: return "unobservedFailure"
        case .nestedTask: return "nestedTask"
        }
    }

    /// A one-line, human-readable account of the misuse.
    public var description: String {
        switch self {
        case .promiseCompletedTwice(let file, let line):
            return "Futures: promise completed twice at \(file):\(line); the first result stays, this one is ignored"
        case .futureCompletedTwice(let file, let line):
            return "Futures: the future created at \(file):\(line) was completed twice; the first result stays"
        case .promiseDropped(let type, let file, let line):
            return
                "Futures: \(type) created at \(file):\(line) was deallocated without being completed; its future fails with FuturesError.brokenPromise if its error type allows (not reported again), otherwise it never completes"
        case .contextRanTaskTwice:
            return "Futures: an execution context ran a callback's task twice; the second run was ignored"
        case .unobservedFailure(let type, let error, let file, let line, let trace):
            let origin = file.map { " (created at \($0):\(line ?? 0))" } ?? ""
            let steps = trace.map { "; failure trace: \($0)" } ?? ""
            return
                "Futures: a failed \(type)\(origin) was deallocated without anyone looking at its failure: \(error)\(steps)"
        case .nestedTask(let type, let use, let file, let line):
            return
                "Futures: the block given at \(file):\(line) returns a task, so the result is a nested \(type) that does not wait for it; use \(use) to chain"
        }
    }
}

/// Where misuse reports go.
///
/// By default every ``FuturesDiagnostic`` is written as one line to standard error. Replace the handler
/// for the process with ``setHandler(_:)`` (e.g. to crash in debug builds, or to log), or for one task
/// tree with ``withHandler(_:operation:)`` (e.g. to assert on reports in a test).
public enum FuturesDiagnostics {
    /// Receives a diagnostic; may be called on any thread.
    public typealias Handler = @Sendable (FuturesDiagnostic) -> Void

    @TaskLocal
    static var taskHandler: Handler?

    private static let processHandler = LockedBox<Handler?>(nil)

    /// Replaces the process-wide handler; `nil` restores the default (standard error).
    ///
    /// The replaced handler is released after the library's lock, on the calling thread: what it captured
    /// may report diagnostics, or set the handler again, from its `deinit`.
    public static func setHandler(_ handler: Handler?) {
        processHandler.value = handler
    }

    /// Runs `operation` with `handler` receiving the reports raised in its task tree.
    public static func withHandler<R>(_ handler: @escaping Handler, operation: () throws -> R) rethrows -> R {
        try $taskHandler.withValue(handler, operation: operation)
    }

    /// Runs the async `operation` with `handler` receiving the reports raised in its task tree.
    public static func withHandler<R>(
        _ handler: @escaping Handler,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await $taskHandler.withValue(handler, operation: operation, isolation: isolation)
    }

    /// The default handler: writes each diagnostic's ``FuturesDiagnostic/description`` as one line to
    /// standard error. Handlers that add to the default (counting diagnostics, say) pass them on to it.
    public static let standardErrorHandler: Handler = { diagnostic in
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }

    /// Sends `diagnostic` to the current handler.
    @usableFromInline
    package static func report(_ diagnostic: FuturesDiagnostic) {
        (taskHandler ?? processHandler.value ?? standardErrorHandler)(diagnostic)
    }
}
