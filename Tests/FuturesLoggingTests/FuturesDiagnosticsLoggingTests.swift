#if Logging
    import Futures
    import FuturesLogging
    import InMemoryLogging
    import Logging
    import Testing

    private struct Failure: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    /// Runs `body` with the diagnostics of its task tree logged to a fresh in-memory logger, and returns
    /// what was logged.
    private func logged(
        level: @escaping @Sendable (FuturesDiagnostic) -> Logger.Level = { $0.defaultLogLevel },
        _ body: () -> Void
    ) -> [InMemoryLogHandler.Entry] {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "futures.tests") { _ in handler }
        logger.logLevel = .trace
        FuturesDiagnostics.withHandler(FuturesDiagnostics.logging(to: logger, level: level), operation: body)
        return handler.entries
    }

    @Suite struct FuturesDiagnosticsLoggingTests {
        @Test func aPromiseCompletedTwiceIsAWarningWithTheSiteOfTheSecondCompletion() {
            var line: UInt = 0
            let entries = logged {
                let promise = Promise<Int, Never>()
                promise.success(1)
                line = #line + 1
                promise.success(2)
            }
            #expect(entries.count == 1)
            let entry = entries.first
            #expect(entry?.level == .warning)
            #expect(entry?.message.description == "promise completed twice; the first result stays")
            #expect(entry?.metadata["futures.diagnostic"] == "promiseCompletedTwice")
            #expect(entry?.metadata["futures.file"] == .string(#fileID))
            #expect(entry?.metadata["futures.line"] == .stringConvertible(line))
        }

        @Test func aDroppedPromiseIsAnErrorWithItsType() {
            let entries = logged {
                _ = Promise<Int, Failure>()
            }
            #expect(entries.count == 1)
            #expect(entries.first?.level == .error)
            #expect(entries.first?.metadata["futures.diagnostic"] == "promiseDropped")
            #expect(entries.first?.metadata["futures.type"]?.description.contains("Int") == true)
        }

        /// A dropped promise whose future fails with `brokenPromise` and is dropped unobserved makes one
        /// entry, the drop, at one level: the failure it caused is not logged again.
        @Test func aDroppedPromiseWhoseBrokenFutureNobodyObservesIsOneErrorEntry() {
            let entries = logged {
                _ = Promise<Int, any Error>()
            }
            #expect(entries.map(\.level) == [.error])
            #expect(entries.map { $0.metadata["futures.diagnostic"] } == ["promiseDropped"])
        }

        @Test func anUnobservedFailureIsAnErrorWithTheFailure() {
            let entries = logged {
                let promise = Promise<Int, Failure>()
                promise.failure(Failure())
            }
            #expect(entries.count == 1)
            let entry = entries.first
            #expect(entry?.level == .error)
            #expect(entry?.metadata["futures.diagnostic"] == "unobservedFailure")
            #expect(entry?.metadata["futures.error"] == "the disk is full")
            #expect(entry?.metadata["futures.type"]?.description.contains("Failure") == true)
        }

        @Test func anUnobservedFailureCarriesItsFailureTraceWhenTracingWasOn() {
            var lines: [UInt] = []
            let entries = logged {
                FuturesDiagnostics.withFailureTracing {
                    let promise = Promise<Int, Failure>()
                    lines.append(#line + 1)
                    let doubled = promise.future.map(immediateExecutionContext) { $0 * 2 }
                    lines.append(#line + 1)
                    _ = doubled.map(immediateExecutionContext) { $0 + 1 }
                    promise.failure(Failure())
                }
            }
            let unobserved = entries.filter { $0.metadata["futures.diagnostic"] == "unobservedFailure" }
            #expect(unobserved.count == 1)
            guard case .array(let steps)? = unobserved.first?.metadata["futures.failure_trace"] else {
                Issue.record("no failure trace in \(unobserved)")
                return
            }
            let text = steps.map(\.description)
            #expect(text.contains { $0.contains("map") && $0.hasSuffix(":\(lines[1])") })
            #expect(text.contains { $0.contains("map") && $0.hasSuffix(":\(lines[0])") })
        }

        @Test func anUnobservedFailureHasNoTraceWhenTracingWasOff() {
            let entries = logged {
                let promise = Promise<Int, Failure>()
                _ = promise.future.map(immediateExecutionContext) { $0 * 2 }
                promise.failure(Failure())
            }
            #expect(entries.count == 1)
            #expect(entries.first?.metadata["futures.failure_trace"] == nil)
        }

        @Test func aContextThatRunsATaskTwiceIsAnErrorWithoutASite() {
            let twice = ExecutionContext { task in
                task()
                task()
            }
            let entries = logged {
                Future<Int, Never>(value: 1).onComplete(twice) { _ in }
            }
            #expect(entries.count == 1)
            #expect(entries.first?.level == .error)
            #expect(entries.first?.metadata["futures.diagnostic"] == "contextRanTaskTwice")
            #expect(entries.first?.metadata["futures.file"] == nil)
        }

        @Test func theLevelCanBeChosenPerDiagnostic() {
            let entries = logged(level: { _ in .debug }) {
                _ = Promise<Int, Failure>()
            }
            #expect(entries.map(\.level) == [.debug])
        }

        @Test func aLoggerLevelAboveTheDiagnosticsFiltersThem() {
            let handler = InMemoryLogHandler()
            var logger = Logger(label: "futures.tests") { _ in handler }
            logger.logLevel = .error
            FuturesDiagnostics.withHandler(FuturesDiagnostics.logging(to: logger)) {
                let promise = Promise<Int, Failure>()
                promise.success(1)
                promise.success(2)  // a warning: filtered out
                let failed = Promise<Int, Failure>()
                failed.failure(Failure())  // an error: kept
            }
            #expect(handler.entries.map { $0.metadata["futures.diagnostic"] } == ["unobservedFailure"])
        }

        @Test func everyKindHasALevelAndAKind() {
            let all: [FuturesDiagnostic] = [
                .promiseCompletedTwice(file: "a", line: 1),
                .futureCompletedTwice(file: "b", line: 2),
                .promiseDropped(type: "Promise<Int, E>", file: "c", line: 3),
                .contextRanTaskTwice,
                .unobservedFailure(type: "Future<Int, E>", error: "e", file: nil, line: nil),
                .nestedTask(type: "BFTask<BFTask<Int>>", use: "continueWithTask", file: "d", line: 4),
            ]
            #expect(all.map(\.defaultLogLevel) == [.warning, .warning, .error, .error, .error, .warning])
            #expect(
                all.map { $0.logMetadata["futures.diagnostic"]?.description }
                    == [
                        "promiseCompletedTwice", "futureCompletedTwice", "promiseDropped", "contextRanTaskTwice",
                        "unobservedFailure", "nestedTask",
                    ]
            )
            #expect(all.map { $0.logMetadata["futures.line"]?.description } == ["1", "2", "3", nil, nil, "4"])
            #expect(all.last?.logMetadata["futures.type"]?.description == "BFTask<BFTask<Int>>")
        }
    }
#endif

#if Logging
    import Foundation

    /// The code of the FuturesLogging article.
    @Suite struct FuturesLoggingArticleTests {
        @Test func theProcessWideSetUpSendsDiagnosticsToTheLogger() async {
            // In a child process: the handler is process-wide and would catch the other tests' reports.
            await #expect(processExitsWith: .success) {
                let handler = InMemoryLogHandler()
                LoggingSystem.bootstrap { _ in handler }
                let logger = Logger(label: "app.futures")
                FuturesDiagnostics.log(to: logger)
                _ = Promise<Int, Never>()
                let kinds = handler.entries.map { $0.metadata["futures.diagnostic"] }
                if kinds != ["promiseDropped"] { exit(1) }
            }
        }

        @Test func aTestCapturesTheEntriesOfOneTaskTree() {
            let handler = InMemoryLogHandler()
            var logger = Logger(label: "futures.tests") { _ in handler }
            logger.logLevel = .trace
            let toLog = FuturesDiagnostics.logging(
                to: logger, level: { _ in .notice })
            FuturesDiagnostics.withHandler(toLog) {
                _ = Promise<Int, Never>()  // dropped without being completed
            }
            // handler.entries: one `.notice` entry,
            // futures.diagnostic = promiseDropped
            #expect(handler.entries.map(\.level) == [.notice])
            #expect(handler.entries.first?.metadata["futures.diagnostic"] == "promiseDropped")
        }
    }
#endif
