import Futures
import Synchronization
import Testing

@testable import SimpleFutures

// SimpleFutures' combinators go through the core's `derive` with their caller's file and line, so a
// future made by any of them names its step at the line that called it, and a request on it reaches its
// input as one consumer's ask. Each row's call is on the row's own line.

private struct Boom: Error {}

private let now = immediateExecutionContext
private let thisFile = "SimpleFuturesTests/EveryWayToMakeAFutureTests.swift"

/// One SimpleFutures combinator applied to an input.
private struct Way: Sendable, CustomTestStringConvertible {
    let step: String
    let line: Int
    let make: @Sendable (SimpleFutures.Future<Int>) -> Futures.Future<Int, any Error>

    init(
        _ step: String, _ line: Int,
        _ make: @escaping @Sendable (SimpleFutures.Future<Int>) -> SimpleFutures.Future<Int>
    ) {
        self.step = step
        self.line = line
        self.make = { make($0).base }
    }

    var testDescription: String { "\(step) (line \(line))" }
}

// swift-format-ignore
private let ways: [Way] = [
    Way("map", #line) { $0.map(context: now) { $0 + 1 } },
    Way("flatMap", #line) { $0.flatMap(context: now) { SimpleFutures.Future(value: $0) } },
    Way("map", #line) { $0.withFilter(context: now) { _ in true } },
    Way("andThen", #line) { $0.andThen(context: now) { _ in } },
    Way("recover", #line) { $0.recover(context: now) { throw $0 } },
    Way("recoverWith", #line) { $0.recoverWith(context: now) { throw $0 } },
    Way("mapError", #line) { $0.mapError(context: now) { $0 } },
    Way("map", #line) { $0.map(context: now, cancelToken: CancelToken()) { $0 + 1 } },
]

@Suite("SimpleFutures: every combinator names its caller's line and asks as one consumer", .hangGuard())
struct SimpleFuturesEveryWayTests {
    @Test(arguments: ways)
    fileprivate func theFailureTraceNamesTheStepAtItsCallersLine(_ way: Way) {
        FuturesDiagnostics.withFailureTracing {
            let input = SimpleFutures.Future<Int>()
            let made = way.make(input)
            input.failure(Boom())
            _ = made.result
            let last = made.failureTrace?.steps.last
            #expect(last?.name == way.step, "\(made.failureTrace.map(String.init(describing:)) ?? "no trace")")
            #expect(last?.file == thisFile)
            #expect(last?.line == UInt(way.line))
        }
    }

    @Test(arguments: ways)
    fileprivate func aRequestReachesTheInputAsOneConsumersAsk(_ way: Way) {
        let input = SimpleFutures.Future<Int>()
        let asked = Atomic<Int>(0)
        input.base.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        let other = input.base.consumer()
        let made = way.make(input)
        made.requestCancellation()
        #expect(asked.load(ordering: .relaxed) == 0)  // another consumer still waits
        other.requestCancellation()
        #expect(asked.load(ordering: .relaxed) == 1)
        input.success(1)
        withExtendedLifetime(made) {}
    }
}
