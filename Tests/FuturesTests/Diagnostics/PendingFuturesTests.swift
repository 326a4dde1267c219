import Dispatch
import Testing

@testable import Futures

// The switch is process-wide and other tests run meanwhile: every test that turns it on runs in a child
// process (`#expect(processExitsWith:)`) and checks with `precondition`.

private enum Boom: Error {
    case boom
}

private let now = immediateExecutionContext

/// Whether `step` is `name` at `line` of this file.
private func isStep(_ step: FailureTrace.Step, _ name: String, _ line: Int) -> Bool {
    step.name == name && step.file == "FuturesTests/PendingFuturesTests.swift" && step.line == UInt(line)
}

@Suite("Pending futures: what is still pending")
struct PendingFuturesTests {
    @Test func aChainIsOneEntryWithSitesAgesAndWhatEachWaitsFor() async {
        await #expect(processExitsWith: .success) { aChainIsOneEntryWithSitesAgesAndWhatEachWaitsForBody() }
    }

    @Test func completedFuturesLeaveTheSnapshot() async {
        await #expect(processExitsWith: .success) { completedFuturesLeaveTheSnapshotBody() }
    }

    @Test func droppedFuturesLeaveTheSnapshotAndAreNotKeptAlive() async {
        await #expect(processExitsWith: .success) { droppedFuturesLeaveTheSnapshotAndAreNotKeptAliveBody() }
    }

    @Test func aGatheringFutureIsListedUnderItsFirstPendingInput() async {
        await #expect(processExitsWith: .success) { aGatheringFutureIsListedUnderItsFirstPendingInputBody() }
    }

    @Test func theLimitKeepsTheOldestAndCountsTheOthers() async {
        await #expect(processExitsWith: .success) { theLimitKeepsTheOldestAndCountsTheOthersBody() }
    }

    /// Runs in this process: nothing here turns tracking on.
    @Test func nothingIsRecordedWhileTrackingIsOff() {
        #expect(!FuturesDiagnostics.tracksPendingFutures)
        let promise = Promise<Int, Boom>()
        let mapped = promise.future.map(now) { $0 + 1 }
        #expect(FuturesDiagnostics.pendingFutures().isEmpty)
        // Free when off: no side-table entry, no registry record.
        #expect(FutureExtras.entry(of: promise.future) == nil && FutureExtras.entry(of: mapped) == nil)
        #expect(FuturesDiagnostics.pendingFuturesReport().hasPrefix("0 pending futures in 0 chains (tracking is off)"))
        withExtendedLifetime(promise) {}
    }

    @Test func manyThreadsCreatingAndCompletingLeaveExactlyThePendingOnes() async {
        await #expect(processExitsWith: .success) { manyThreadsCreatingAndCompletingLeaveExactlyThePendingOnesBody() }
    }
}

/// The child process of ``PendingFuturesTests/aChainIsOneEntryWithSitesAgesAndWhatEachWaitsFor()``: `#line` inside an exit test's closure
/// is the line of the `#expect`, so the body lives here.
private func aChainIsOneEntryWithSitesAgesAndWhatEachWaitsForBody() {
    FuturesDiagnostics.tracksPendingFutures = true
    let line = #line + 1
    let promise = Promise<Int, Boom>()
    let mapped = promise.future.map(now) { $0 + 1 }
    let chained = mapped.flatMap(now) { Future<Int, Boom>(value: $0) }
    let chains = FuturesDiagnostics.pendingFutures()
    precondition(chains.count == 1, "\(chains)")
    let chain = chains[0]
    precondition(isStep(chain.site, "Promise", line), "\(chain.site)")
    precondition(chain.waitsOn.isEmpty)
    precondition(chain.dependents.count == 2, "\(chain)")
    precondition(isStep(chain.dependents[0].site, "map", line + 1))
    precondition(isStep(chain.dependents[1].site, "flatMap", line + 2))
    precondition(chain.dependents[0].waitsOn == [chain.site])
    precondition(chain.dependents[1].waitsOn == [chain.dependents[0].site])
    // Ages: never negative, and the older a future, the larger its age.
    precondition(chain.dependents[1].age >= .zero)
    precondition(chain.age >= chain.dependents[0].age && chain.dependents[0].age >= chain.dependents[1].age)
    let report = FuturesDiagnostics.pendingFuturesReport()
    precondition(report.hasPrefix("3 pending futures in 1 chain\n"), report)
    precondition(
        report.contains("Promise at FuturesTests/PendingFuturesTests.swift:\(line), pending for "), report)
    precondition(report.contains("waits for whoever completes it"), report)
    precondition(report.contains("waits for map at FuturesTests/PendingFuturesTests.swift:\(line + 1)"), report)
    withExtendedLifetime((promise, chained)) {}
}

/// The child process of ``PendingFuturesTests/completedFuturesLeaveTheSnapshot()``: `#line` inside an exit test's closure
/// is the line of the `#expect`, so the body lives here.
private func completedFuturesLeaveTheSnapshotBody() {
    FuturesDiagnostics.tracksPendingFutures = true
    let promise = Promise<Int, Boom>()
    let inner = Promise<Int, Boom>()
    let line = #line + 1
    let chained = promise.future.map(now) { $0 + 1 }.flatMap(now) { _ in inner.future }
    precondition(FuturesDiagnostics.pendingFutures().map(\.dependents.count) == [2, 0])
    // The source completed: `flatMap` now waits for the future its closure returned.
    promise.success(1)
    let chains = FuturesDiagnostics.pendingFutures()
    precondition(chains.count == 1 && isStep(chains[0].site, "Promise", line - 2), "\(chains)")
    precondition(chains[0].dependents.count == 1 && isStep(chains[0].dependents[0].site, "flatMap", line))
    precondition(chains[0].dependents[0].waitsOn == [chains[0].site])
    inner.success(2)
    precondition(FuturesDiagnostics.pendingFutures().isEmpty)
    precondition(FuturesDiagnostics.pendingFuturesReport() == "0 pending futures in 0 chains")
    withExtendedLifetime(chained) {}
}

/// The child process of ``PendingFuturesTests/droppedFuturesLeaveTheSnapshotAndAreNotKeptAlive()``: `#line` inside an exit test's closure
/// is the line of the `#expect`, so the body lives here.
private func droppedFuturesLeaveTheSnapshotAndAreNotKeptAliveBody() {
    FuturesDiagnostics.setHandler { _ in }  // the dropped promise's report
    FuturesDiagnostics.tracksPendingFutures = true
    weak var weakSource: Future<Int, Boom>?
    weak var weakMapped: Future<Int, Boom>?
    weak var weakResolved: Future<Int, Boom>?
    do {
        let promise = Promise<Int, Boom>()
        let mapped = promise.future.map(now) { $0 + 1 }
        let resolved = Future<Int, Boom> { _ in }
        (weakSource, weakMapped, weakResolved) = (promise.future, mapped, resolved)
        precondition(FuturesDiagnostics.pendingFutures().count == 2)
    }
    precondition(weakSource == nil && weakMapped == nil && weakResolved == nil, "the registry kept a future")
    precondition(FuturesDiagnostics.pendingFutures().isEmpty)
    precondition(PendingFutureRegistry.state.withValue { $0.records.isEmpty })
}

/// The child process of ``PendingFuturesTests/aGatheringFutureIsListedUnderItsFirstPendingInput()``: `#line` inside an exit test's closure
/// is the line of the `#expect`, so the body lives here.
private func aGatheringFutureIsListedUnderItsFirstPendingInputBody() {
    FuturesDiagnostics.tracksPendingFutures = true
    let first = Promise<Int, Boom>()
    let second = Promise<Int, Boom>()
    let pair = first.future.zip(second.future)
    let chains = FuturesDiagnostics.pendingFutures()
    precondition(chains.map(\.dependents.count) == [1, 0], "\(chains)")
    precondition(chains[0].dependents[0].site.name == "zip")
    precondition(chains[0].dependents[0].waitsOn == [chains[0].site, chains[1].site])
    first.success(1)
    let later = FuturesDiagnostics.pendingFutures()
    precondition(later.count == 1 && later[0].dependents[0].waitsOn == [later[0].site], "\(later)")
    withExtendedLifetime((second, pair)) {}
}

/// The child process of ``PendingFuturesTests/theLimitKeepsTheOldestAndCountsTheOthers()``: `#line` inside an exit test's closure
/// is the line of the `#expect`, so the body lives here.
private func theLimitKeepsTheOldestAndCountsTheOthersBody() {
    FuturesDiagnostics.setHandler { _ in }  // the dropped promise's report
    FuturesDiagnostics.pendingFuturesLimit = 3
    FuturesDiagnostics.tracksPendingFutures = true
    let promises = (0..<5).map { _ in Promise<Int, Boom>() }
    precondition(FuturesDiagnostics.pendingFutures().count == 3)
    precondition(FuturesDiagnostics.pendingFuturesLeftOut == 2)
    let report = FuturesDiagnostics.pendingFuturesReport()
    precondition(report.hasPrefix("3 pending futures in 3 chains; 2 more left out"), report)
    // Room again once the oldest complete.
    promises[0].success(0)
    _ = Promise<Int, Boom>()  // tracked, then dropped: its future goes away with it
    precondition(FuturesDiagnostics.pendingFutures().count == 2)
    let kept = Promise<Int, Boom>()
    precondition(FuturesDiagnostics.pendingFutures().count == 3)
    // Turning tracking off forgets everything; on again starts afresh.
    FuturesDiagnostics.tracksPendingFutures = false
    precondition(FuturesDiagnostics.pendingFutures().isEmpty)
    let madeWhileOff = Promise<Int, Boom>()
    FuturesDiagnostics.tracksPendingFutures = true
    precondition(FuturesDiagnostics.pendingFuturesLeftOut == 0)
    precondition(FuturesDiagnostics.pendingFutures().isEmpty)  // never tracked
    precondition(FutureExtras.entry(of: madeWhileOff.future) == nil)
    withExtendedLifetime((promises, kept, madeWhileOff)) {}
}

/// The child process of ``PendingFuturesTests/manyThreadsCreatingAndCompletingLeaveExactlyThePendingOnes()``: `#line` inside an exit test's closure
/// is the line of the `#expect`, so the body lives here.
private func manyThreadsCreatingAndCompletingLeaveExactlyThePendingOnesBody() {
    FuturesDiagnostics.tracksPendingFutures = true
    let kept = LockedBox<[Promise<Int, Boom>]>([])
    let completions = DispatchGroup()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
        for index in 0..<250 {
            let promise = Promise<Int, Boom>()
            let mapped = promise.future.map(now) { $0 + 1 }.recover(context: now) { _ in 0 }
            if index % 5 == 0 {
                kept.withValue { $0.append(promise) }
            } else {
                completions.enter()
                DispatchQueue.global().async {
                    promise.success(thread)
                    completions.leave()
                }
            }
            if index % 50 == 0 { _ = FuturesDiagnostics.pendingFutures() }  // snapshots race with the rest
            withExtendedLifetime(mapped) {}
        }
    }
    // 8 × 50 kept pending, each a chain of three; the others completed.
    completions.wait()
    let promises = kept.value
    let chains = FuturesDiagnostics.pendingFutures()
    precondition(chains.count == 400 && chains.allSatisfy { $0.dependents.count == 2 }, "\(chains.count)")
    for promise in promises { promise.success(0) }
    precondition(FuturesDiagnostics.pendingFutures().isEmpty)
}
