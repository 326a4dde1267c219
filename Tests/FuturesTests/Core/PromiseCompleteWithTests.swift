import Testing

@testable import Futures

private enum SaveError: Error, Equatable {
    case rejected
}

@Suite("Promise.completeWith: any future whose error converts")
struct PromiseCompleteWithTests {
    @Test func aTypedPromiseTakesAFutureThatCannotFail() async throws {
        let promise = Promise<Int, SaveError>()
        let source = Promise<Int, Never>()
        promise.completeWith(source.future)  // no .promoteError() needed
        #expect(!promise.future.isCompleted)
        source.success(3)
        #expect(try await promise.future.get() == 3)
        let promoted = Promise<Int, SaveError>()
        promoted.completeWith(Future<Int, Never>(value: 4).promoteError())  // BrightFutures' spelling still works
        #expect(promoted.future.value == 4)
    }

    @Test func aPromiseThatCannotFailStillTakesItsOwnType() {
        let promise = Promise<Int, Never>()
        promise.completeWith(Future<Int, Never>(value: 5))
        #expect(promise.future.value == 5)
    }

    @Test func anUntypedPromiseTakesATypedFutureAndKeepsTheError() async {
        let promise = Promise<Int, any Error>()
        promise.completeWith(Future<Int, SaveError>(error: .rejected))
        await #expect(throws: SaveError.rejected) { try await promise.future.get() }
        let fromNever = Promise<Int, any Error>()
        fromNever.completeWith(Future<Int, Never>(value: 6))
        #expect(fromNever.future.value == 6)
        let same = Promise<Int, any Error>()
        same.completeWith(Future<Int, any Error>(value: 7))
        #expect(same.future.value == 7)
    }

    @Test func aCancellationRequestReachesTheConvertedFuture() {
        let source = Promise<Int, Never>()
        let asked = Counter()
        source.onCancellationRequested { asked.increment() }
        let promise = Promise<Int, SaveError>()
        promise.completeWith(source.future)
        promise.future.requestCancellation()
        #expect(asked.value == 1)
        let typed = Promise<Int, SaveError>()
        let typedAsked = Counter()
        typed.onCancellationRequested { typedAsked.increment() }
        let untyped = Promise<Int, any Error>()
        untyped.completeWith(typed.future)
        untyped.future.requestCancellation()
        #expect(typedAsked.value == 1)
    }
}

/// A `completeWith` that loses to an earlier completion is reported at the caller's line, in every form.
extension PromiseCompleteWithTests {
    static let file = "FuturesTests/PromiseCompleteWithTests.swift"

    @Test func aConflictingCompleteWithNamesTheCallersLine() {
        var line: UInt = 0
        let (_, diagnostics) = gDiagnosing { () -> Void in
            let promise = Promise<Int, SaveError>()
            promise.success(1)
            line = #line + 1
            promise.completeWith(Future<Int, SaveError>(value: 2))
            #expect(promise.future.value == 1)
        }
        #expect(diagnostics == [.promiseCompletedTwice(file: Self.file, line: line)])
    }

    /// The other future completes after the call: the report still names the call, not where the other
    /// future completed.
    @Test func aConflictingCompleteWithNamesItsLineWhenTheOtherFutureCompletesLater() {
        var line: UInt = 0
        let (_, diagnostics) = gDiagnosing { () -> Void in
            let promise = Promise<Int, SaveError>()
            let other = Promise<Int, SaveError>()
            line = #line + 1
            promise.completeWith(other.future)
            promise.success(1)
            other.success(2)
            #expect(promise.future.value == 1)
        }
        #expect(diagnostics == [.promiseCompletedTwice(file: Self.file, line: line)])
    }

    @Test func theFormsForOtherErrorTypesNameTheCallersLineToo() {
        var lines: [UInt] = []
        let (_, diagnostics) = gDiagnosing { () -> Void in
            let typed = Promise<Int, SaveError>()
            typed.success(1)
            lines.append(#line + 1)
            typed.completeWith(Future<Int, Never>(value: 2))
            let untyped = Promise<Int, any Error>()
            untyped.success(1)
            lines.append(#line + 1)
            untyped.completeWith(Future<Int, SaveError>(value: 2))
        }
        #expect(diagnostics == lines.map { .promiseCompletedTwice(file: Self.file, line: $0) })
    }
}
