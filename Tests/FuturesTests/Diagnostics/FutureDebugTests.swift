import Testing

@testable import Futures

/// Records messages instead of printing them.
private final class RecordingLogger: LoggerType {
    let messages = Recorder<String>()
    func log(message: String) { messages.append(message) }
}

/// Overrides the message text.
private struct ShortLogger: LoggerType {
    let messages = Recorder<String>()
    func log(message: String) { messages.append(message) }
    func message<Value>(for value: Value, with identifier: String?, file: String, line: UInt, function: String)
        -> String
    {
        "\(identifier ?? "?"): \(value)"
    }
}

private enum Failure: Error {
    case boom
}

@Suite("debug(): logging completion")
struct FutureDebugTests {
    @Test func withAnIdentifierTheMessageNamesIt() {
        let logger = RecordingLogger()
        let future = Future<Int, Never>(value: 1).debug("login", logger: logger, context: immediateExecutionContext)
        #expect(future.value == 1)
        #expect(logger.messages.values == ["Future login completed"])
    }

    @Test func withoutAnIdentifierTheMessageNamesFileLineAndFunction() {
        let logger = RecordingLogger()
        _ = Future<Int, Never>(value: 1).debug(
            logger: logger, file: "/tmp/Sources/App/Login.swift", line: 12, function: "logIn()",
            context: immediateExecutionContext)
        #expect(logger.messages.values == ["Login.swift at line 12, func: logIn() - future completed"])
    }

    @Test func theDefaultFileLineAndFunctionAreTheCallers() {
        let logger = RecordingLogger()
        let line: UInt = #line + 1
        _ = Future<Int, Never>(value: 1).debug(logger: logger, context: immediateExecutionContext)
        let function = #function
        #expect(
            logger.messages.values == [
                "FutureDebugTests.swift at line \(line), func: \(function) - future completed"
            ])
    }

    @Test func aFailureIsLoggedAndPassedOn() {
        let logger = RecordingLogger()
        let future = Future<Int, Failure>(error: .boom).debug("f", logger: logger, context: immediateExecutionContext)
        #expect(logger.messages.values == ["Future f completed"])
        #expect(future.error != nil)
    }

    @Test func nothingIsLoggedBeforeCompletion() {
        let logger = RecordingLogger()
        let promise = Promise<Int, Never>()
        let future = promise.future.debug("p", logger: logger, context: immediateExecutionContext)
        #expect(logger.messages.values.isEmpty && !future.isCompleted)
        promise.success(2)
        #expect(logger.messages.values == ["Future p completed"] && future.value == 2)
    }

    @Test func aLoggerCanReplaceTheMessage() {
        let logger = ShortLogger()
        _ = Future<Int, Never>(value: 5).debug("n", logger: logger, context: immediateExecutionContext)
        #expect(logger.messages.values == ["n: success(5)"])
    }

    @Test func debugRunsOnACustomContextAndOnTheDefaultContext() {
        let logger = RecordingLogger()
        let counting = CountingContext()
        _ = Future<Int, Never>(value: 1).debug("fn", logger: logger, context: ExecutionContext(counting.function))
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            _ = Future<Int, Never>(value: 1).debug("default", logger: logger)
        }
        #expect(counting.count.value == 1)
        #expect(logger.messages.values == ["Future fn completed", "Future default completed"])
    }

    @Test func printLoggerIsTheDefaultLogger() {
        let logger: any LoggerType = PrintLogger()
        #expect(
            logger.message(for: 1, with: nil, file: "A.swift", line: 1, function: "f()")
                == "A.swift at line 1, func: f() - future completed")
    }
}
