import Foundation
import Testing

@testable import Futures

@Suite("Promise: a small object that names where it was made")
struct PromiseTests {
    @Test func aDroppedPromiseIsReportedWithTheFileAndLineWhereItWasCreated() {
        let line: UInt = #line + 1
        let (_, diagnostics) = gDiagnosing { Promise<Int, any Error>().future }
        guard case .promiseDropped(let type, let file, let reportedLine)? = diagnostics.first else {
            Issue.record("got \(diagnostics)")
            return
        }
        #expect(type == "Promise<Int, Error>")
        #expect(file == "FuturesTests/PromiseTests.swift")
        #expect(reportedLine == line)
    }

    @Test func anExplicitCallSiteIsKeptAsGiven() {
        let (_, diagnostics) = gDiagnosing {
            Promise<Int, any Error>(file: "Module/Explicit.swift", line: 4_242).future
        }
        guard case .promiseDropped(_, let file, let line)? = diagnostics.first else {
            Issue.record("got \(diagnostics)")
            return
        }
        #expect(file == "Module/Explicit.swift")
        #expect(line == 4_242)
    }

    @Test func aCallSiteMadeFromOneScalarHasNoPointerButKeepsItsName() {
        let site = CallSite(file: StaticString(unicodeScalarLiteral: "é"), line: 3)
        #expect(site.file == "é")
        #expect(site.line == 3)
    }

    /// The promise keeps its creation site in two words, so the whole object is 40 bytes
    /// (header 16, future 8, site 16): the allocator serves it from a 48-byte chunk, where a `StaticString`
    /// and a `UInt` made it 56 bytes in a 64-byte chunk.
    @Test func aPromiseIsAFortyByteAllocation() {
        #expect(MemoryLayout<CallSite>.size == 16)
        #expect(
            smallestHeapBlock {
                let promise = Promise<Int, Never>()
                promise.success(1)
                return promise
            } <= 40)
    }
}

extension PromiseTests {
    /// A promise's deallocation reads its future's completed bit without the lock, so nothing
    /// about the completion is written into the promise (its cache line is shared with the threads that
    /// read `future`). The bit is seen at once on the completing thread, and the site is unchanged.
    @Test func aCompletionIsSeenWithoutTheLockAndLeavesThePromiseUnchanged() {
        let line: UInt = #line + 1
        let promise = Promise<Int, Never>()
        #expect(!promise.future.isKnownCompleted)
        promise.success(1)
        #expect(promise.future.isKnownCompleted)
        #expect(promise.site.line == line)
        #expect(promise.site.file == "FuturesTests/PromiseTests.swift")
    }

    /// Every way of completing through the promise leaves the completed bit visible without the lock,
    /// also a completion that lost a race (the future is completed either way), and none of them is then
    /// reported as dropped.
    @Test func everyCompletionThroughThePromiseIsSeenWithoutTheLockAndNoneIsReportedAsDropped() {
        let completions: [@Sendable (Promise<Int, any Error>) -> Void] = [
            { $0.success(1) }, { $0.failure(FuturesError.cancelled) }, { $0.complete(.success(1)) },
            { _ = $0.trySuccess(1) }, { _ = $0.tryFailure(FuturesError.cancelled) },
            { _ = $0.tryComplete(.success(1)) }, { $0.completeWith(Future(value: 1)) },
            { promise in
                promise.success(0)
                _ = promise.trySuccess(1)  // lost: the future was completed already
            },
        ]
        for (index, complete) in completions.enumerated() {
            let (seen, diagnostics) = gDiagnosing { () -> Bool in
                let promise = Promise<Int, any Error>()
                complete(promise)
                return promise.future.isKnownCompleted
            }
            #expect(seen, "completion \(index)")
            #expect(
                !diagnostics.contains { if case .promiseDropped = $0 { true } else { false } }, "completion \(index)")
        }
    }

    /// A future completed past its promise (here a consumer's cancellation request on a future whose
    /// promise made it cancellable) is not reported as dropped either when the promise goes.
    @Test func aFutureCompletedPastItsPromiseIsNotReportedAsDroppedEither() {
        let (_, diagnostics) = gDiagnosing { () -> Void in
            let promise = Promise<Int, any Error>()
            promise.future.onCancellationRequested {}
            promise.future.complete(.failure(FuturesError.cancelled))
            #expect(promise.future.isCompleted)
        }
        #expect(!diagnostics.contains { if case .promiseDropped = $0 { true } else { false } }, "got \(diagnostics)")
    }

    /// Completers racing on 4 threads, more than the cores: exactly one wins, and the promise released
    /// last by any of them reports nothing (TSan checks the unlocked read of the completed bit).
    @Test(.hangGuard()) func racingCompletersLeaveOneWinnerAndNoDroppedReport() async {
        for _ in 0..<200 {
            let log = GLog<FuturesDiagnostic>()
            let wins = await FuturesDiagnostics.withHandler({ log.append($0) }) { () async -> Int in
                let promise = Promise<Int, Never>()
                return await withTaskGroup(of: Bool.self) { group in
                    for value in 0..<4 {
                        group.addTask { [promise] in promise.trySuccess(value) }
                    }
                    var wins = 0
                    for await won in group where won { wins += 1 }
                    return wins
                }
            }
            #expect(wins == 1)
            #expect(log.values.isEmpty)
        }
    }

    /// A line beyond 32 bits keeps its low 32 bits (the site is stored in two words).
    @Test func aLineBeyondThirtyTwoBitsKeepsItsLowBits() {
        let (_, diagnostics) = gDiagnosing {
            Promise<Int, any Error>(file: "F.swift", line: UInt(truncatingIfNeeded: 0x1_0000_0005 as UInt64)).future
        }
        guard case .promiseDropped(_, _, let line)? = diagnostics.first else {
            Issue.record("got \(diagnostics)")
            return
        }
        #expect(line == 5)
    }
}
