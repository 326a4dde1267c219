#if Logging
    import Futures
    import Logging

    extension FuturesDiagnostics {
        /// Sends every `FuturesDiagnostic` of the process to `logger`, as one structured log
        /// entry each (see ``logging(to:level:)`` for the levels and the metadata).
        ///
        /// Call it once, at start-up, after `LoggingSystem.bootstrap`. It replaces the process-wide
        /// handler (`FuturesDiagnostics.setHandler(_:)`); a task-local handler of
        /// `FuturesDiagnostics.withHandler(_:operation:)` still takes precedence in its task tree.
        ///
        /// - Parameters:
        ///   - logger: Where the diagnostics go. Its own log level filters them as usual.
        ///   - level: The level of each diagnostic; by default ``Futures/FuturesDiagnostic/defaultLogLevel``.
        public static func log(
            to logger: Logger,
            level: @escaping @Sendable (FuturesDiagnostic) -> Logger.Level = { $0.defaultLogLevel }
        ) {
            setHandler(logging(to: logger, level: level))
        }

        /// A diagnostics handler that writes each `FuturesDiagnostic` to `logger`.
        ///
        /// Each entry has a short message that names the misuse, the level `level` gives it
        /// (``Futures/FuturesDiagnostic/defaultLogLevel`` by default) and the diagnostic's
        /// ``Futures/FuturesDiagnostic/logMetadata``: the kind under `futures.diagnostic`, and where it
        /// applies the site the diagnostic names (`futures.file`, `futures.line`: the second completion,
        /// or where the dropped promise or the failed future was created), the future's type
        /// (`futures.type`) and the failure (`futures.error`). The entry's own source location is that
        /// site when the diagnostic has one.
        ///
        /// The handler runs on the thread that raised the diagnostic (for an unobserved failure, the thread
        /// that dropped the future's last reference), never under a lock of the library. Use it with
        /// `FuturesDiagnostics.setHandler(_:)` or, for one task tree,
        /// `FuturesDiagnostics.withHandler(_:operation:)`.
        public static func logging(
            to logger: Logger,
            level: @escaping @Sendable (FuturesDiagnostic) -> Logger.Level = { $0.defaultLogLevel }
        ) -> Handler {
            { diagnostic in
                let site = diagnostic.site
                logger.log(
                    level: level(diagnostic),
                    "\(diagnostic.logMessage)",
                    metadata: diagnostic.logMetadata,
                    file: site?.file ?? #fileID,
                    function: "",
                    line: site?.line ?? #line
                )
            }
        }
    }

    extension FuturesDiagnostic {
        /// The level ``Futures/FuturesDiagnostics/logging(to:level:)`` logs this diagnostic at by default.
        ///
        /// - `FuturesDiagnostic.unobservedFailure(type:error:file:line:trace:)`,
        ///   `FuturesDiagnostic.promiseDropped(type:file:line:)` and
        ///   `FuturesDiagnostic.contextRanTaskTwice`: `.error` — a failure nobody handled, a promise
        ///   that will never deliver its result (its future fails with `brokenPromise` where its error
        ///   type allows, and that failure is not reported again), or an execution context that breaks
        ///   its contract.
        /// - `FuturesDiagnostic.promiseCompletedTwice(file:line:)`,
        ///   `FuturesDiagnostic.futureCompletedTwice(file:line:)` and
        ///   `FuturesDiagnostic.nestedTask(type:use:file:line:)`: `.warning` — a misuse the library
        ///   survived with a defined outcome (the first result stays; a nested task is the new task's
        ///   value).
        public var defaultLogLevel: Logger.Level {
            switch self {
            case .unobservedFailure, .promiseDropped, .contextRanTaskTwice: return .error
            case .promiseCompletedTwice, .futureCompletedTwice, .nestedTask: return .warning
            }
        }

        /// The structured metadata of this diagnostic: `futures.diagnostic` (its kind, e.g.
        /// `unobservedFailure`), and where they apply `futures.file`, `futures.line`, `futures.type`,
        /// `futures.error` and `futures.failure_trace` (the steps of an unobserved failure's trace, one
        /// string each, when failure tracing was on).
        public var logMetadata: Logger.Metadata {
            var metadata: Logger.Metadata = ["futures.diagnostic": .string(kind)]
            switch self {
            case .promiseCompletedTwice, .futureCompletedTwice, .contextRanTaskTwice:
                break
            case .promiseDropped(let type, _, _), .nestedTask(let type, _, _, _):
                metadata["futures.type"] = .string(type)
            case .unobservedFailure(let type, let error, _, _, let trace):
                metadata["futures.type"] = .string(type)
                metadata["futures.error"] = .string(error)
                if let trace {
                    metadata["futures.failure_trace"] = .array(trace.steps.map { .string($0.description) })
                }
            }
            if let site {
                metadata["futures.file"] = .string(site.file)
                metadata["futures.line"] = .stringConvertible(site.line)
            }
            return metadata
        }

        /// The site the diagnostic names, when it has one: where a promise was completed the second time,
        /// or where a dropped promise or a failed future was created, or where a task was nested.
        var site: (file: String, line: UInt)? {
            switch self {
            case .promiseCompletedTwice(let file, let line), .futureCompletedTwice(let file, let line),
                .promiseDropped(_, let file, let line), .nestedTask(_, _, let file, let line):
                return (file, line)
            case .unobservedFailure(_, _, let file?, let line?, _):
                return (file, line)
            case .unobservedFailure, .contextRanTaskTwice:
                return nil
            }
        }

        /// The log message: what happened, without the details the metadata carries.
        var logMessage: String {
            switch self {
            case .promiseCompletedTwice: return "promise completed twice; the first result stays"
            case .futureCompletedTwice: return "future completed twice; the first result stays"
            case .promiseDropped: return "promise deallocated without being completed"
            case .contextRanTaskTwice:
                return "execution context ran a callback's task twice; the second run was ignored"
            case .unobservedFailure: return "failed future deallocated without anyone looking at its failure"
            case .nestedTask: return "a block returned a task to a value form; the result nests it"
            }
        }
    }
#endif
