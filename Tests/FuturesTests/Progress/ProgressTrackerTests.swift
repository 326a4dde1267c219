import Dispatch
import Foundation
import Testing

@testable import Futures

/// Collects snapshots delivered to an observer.
final class SnapshotLog: Sendable {
    private let snapshots = LockedBox<[ProgressSnapshot]>([])

    func append(_ snapshot: ProgressSnapshot) { snapshots.withValue { $0.append(snapshot) } }

    var all: [ProgressSnapshot] { snapshots.value }
    var fractions: [Double] { all.map(\.fractionCompleted) }
}

func snapshot(_ completed: Double, of total: Double, finished: Bool = false) -> ProgressSnapshot {
    ProgressSnapshot(completed: completed, total: total, isFinished: finished)
}

@Suite("Progress: reporting, aggregation, callbacks, AsyncSequence, Foundation", .hangGuard())
struct ProgressTrackerTests {
    // MARK: Reporting

    @Test func aPromiseReportsUnitsOfItsDeclaredTotal() {
        let promise = Promise<Int, Never>(progressTotal: 4)
        #expect(promise.future.progress.current == snapshot(0, of: 4))
        promise.reportProgress(completed: 1)
        #expect(promise.future.progress.current == snapshot(1, of: 4))
        #expect(promise.future.progress.current.fractionCompleted == 0.25)
        promise.reportProgress(completed: 3, of: 6)
        #expect(promise.future.progress.current == snapshot(3, of: 6))
        promise.success(1)
        #expect(promise.future.progress.current == snapshot(6, of: 6, finished: true))
    }

    @Test func aFractionIsOfTheTotalOrOfOneUnit() {
        let counted = Promise<Int, Never>(progressTotal: 10)
        counted.reportProgress(fraction: 0.5)
        #expect(counted.future.progress.current == snapshot(5, of: 10))
        let unknown = Promise<Int, Never>()
        unknown.reportProgress(fraction: 0.25)
        #expect(unknown.future.progress.current == snapshot(0.25, of: 1))
        counted.success(0)
        unknown.success(0)
    }

    @Test func badInputHasOneOutcomeEach() {
        let promise = Promise<Int, Never>(progressTotal: 10)
        promise.reportProgress(completed: 2)
        promise.reportProgress(completed: -1)  // ignored
        #expect(promise.future.progress.current == snapshot(2, of: 10))
        promise.reportProgress(completed: 3, of: -5)  // ignored
        #expect(promise.future.progress.current == snapshot(2, of: 10))
        promise.reportProgress(completed: 12)  // clamped to the total
        #expect(promise.future.progress.current == snapshot(10, of: 10))
        promise.reportProgress(fraction: 1.5)  // clamped into 0...1
        #expect(promise.future.progress.current == snapshot(10, of: 10))
        promise.reportProgress(fraction: -0.5)
        #expect(promise.future.progress.current == snapshot(0, of: 10))
        promise.reportProgress(fraction: .nan)  // ignored
        promise.reportProgress(fraction: .infinity)  // ignored
        #expect(promise.future.progress.current == snapshot(0, of: 10))
        promise.success(1)
        promise.reportProgress(completed: 1)  // after completion: ignored
        #expect(promise.future.progress.current == snapshot(10, of: 10, finished: true))

        let negative = Promise<Int, Never>(progressTotal: -3)  // taken as unknown
        #expect(negative.future.progress.current == snapshot(0, of: 0))
        negative.success(0)
        #expect(negative.future.progress.current == snapshot(1, of: 1, finished: true))
    }

    @Test func aFutureNobodyReportsOnIsOneUnitDoneAtCompletion() {
        let promise = Promise<Int, Never>()
        #expect(promise.future.progress.current == snapshot(0, of: 1))
        promise.success(1)
        #expect(promise.future.progress.current == snapshot(1, of: 1, finished: true))
        #expect(Future<Int, Never>(value: 1).progress.current.isFinished)
    }

    @Test func reportingWithoutDeclaringReachesOnlyTheFutureItselfNotFuturesDerivedEarlier() {
        let promise = Promise<Int, Never>()
        let earlier = promise.future.map(immediateExecutionContext) { $0 + 1 }
        promise.reportProgress(completed: 5, of: 10)
        #expect(promise.future.progress.current == snapshot(5, of: 10))
        let later = promise.future.map(immediateExecutionContext) { $0 + 1 }
        #expect(later.progress.current == snapshot(5, of: 10))
        #expect(earlier.progress.current == snapshot(0, of: 1))
        promise.success(1)
        #expect(earlier.progress.current.isFinished)
    }

    // MARK: Combinators

    @Test func mapAndRecoverPassProgressThrough() {
        let promise = Promise<Int, any Error>(progressTotal: 8)
        let mapped = promise.future.map(immediateExecutionContext) { $0 * 2 }
            .recover(context: immediateExecutionContext) { _ in 0 }
        promise.reportProgress(completed: 2)
        #expect(mapped.progress.current == snapshot(2, of: 8))
        promise.success(1)
        #expect(mapped.progress.current == snapshot(8, of: 8, finished: true))
    }

    @Test func aReportTravelsDownALongDerivedChainInBoundedStack() {
        let promise = Promise<Int, Never>(progressTotal: 10)
        var end = promise.future
        for _ in 0..<50_000 { end = end.map(immediateExecutionContext) { $0 + 1 } }
        promise.reportProgress(completed: 7)
        #expect(end.progress.current == snapshot(7, of: 10))
        promise.success(0)
        #expect(end.progress.current == snapshot(10, of: 10, finished: true))
    }

    @Test func flatMapAddsTheInnerFuturesProgressOnceKnown() {
        let first = Promise<Int, Never>(progressTotal: 2)
        let second = Promise<Int, Never>(progressTotal: 10)
        let chained = first.future.flatMap(immediateExecutionContext) { _ in second.future }
        first.reportProgress(completed: 1)
        #expect(chained.progress.current == snapshot(1, of: 2))
        first.success(0)
        #expect(chained.progress.current == snapshot(2, of: 12))
        second.reportProgress(completed: 4)
        #expect(chained.progress.current == snapshot(6, of: 12))
        second.success(1)
        #expect(chained.progress.current == snapshot(12, of: 12, finished: true))
    }

    @Test func flatMapFromAFutureWithoutProgressFollowsTheInnerFuture() {
        let first = Promise<Int, Never>()
        let inner = Promise<Int, Never>(progressTotal: 4)
        let chained = first.future.flatMap(immediateExecutionContext) { _ in inner.future }
        first.success(0)
        inner.reportProgress(completed: 1)
        #expect(chained.progress.current == snapshot(1, of: 4))
        inner.success(0)
    }

    @Test func sequenceSumsItsPartsAndCountsAnInputWithoutProgressAsOneUnit() {
        let download = Promise<Int, Never>(progressTotal: 100)
        let plain = Promise<Int, Never>()
        let done = Future<Int, Never>(value: 3)
        let all = [download.future, plain.future, done].sequence()
        #expect(all.progress.current == snapshot(1, of: 102))
        download.reportProgress(completed: 50)
        #expect(all.progress.current == snapshot(51, of: 102))
        plain.success(2)
        #expect(all.progress.current == snapshot(52, of: 102))
        download.success(1)
        #expect(all.progress.current == snapshot(102, of: 102, finished: true))
    }

    @Test func settledSumsItsPartsToo() {
        let failing = Promise<Int, any Error>(progressTotal: 4)
        let plain = Promise<Int, any Error>()
        let all = [failing.future, plain.future].settled()
        failing.reportProgress(completed: 2)
        #expect(all.progress.current == snapshot(2, of: 5))
        failing.failure(FuturesError.cancelled)  // a failed input counts as done
        #expect(all.progress.current == snapshot(4, of: 5))
        plain.success(1)
        #expect(all.progress.current == snapshot(5, of: 5, finished: true))
    }

    @Test func traverseSumsTheFuturesItMakes() {
        let promises = (0..<3).map { _ in Promise<Int, Never>(progressTotal: 10) }
        let all = [0, 1, 2].traverse(immediateExecutionContext) { promises[$0].future }
        promises[0].reportProgress(completed: 10)
        promises[2].reportProgress(completed: 5)
        #expect(all.progress.current == snapshot(15, of: 30))
        for promise in promises { promise.success(0) }
        #expect(all.progress.current.isFinished)
    }

    @Test func zipSumsBothSides() {
        let left = Promise<Int, Never>(progressTotal: 3)
        let right = Promise<String, Never>()
        let pair = left.future.zip(right.future)
        left.reportProgress(completed: 3)
        #expect(pair.progress.current == snapshot(3, of: 4))
        right.success("r")
        #expect(pair.progress.current == snapshot(4, of: 4))
        left.success(1)
        #expect(pair.progress.current == snapshot(4, of: 4, finished: true))
    }

    @Test func theLimitersProgressSumsItsItemsFromTheFirstAskOn() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let before = Promise<Int, Never>()
        _ = limiter.submit { before.future }
        let progress = limiter.progress
        let counted = Promise<Int, Never>(progressTotal: 10)
        let waiting = Promise<Int, Never>()
        let first = limiter.submit { counted.future }
        _ = limiter.submit { waiting.future }
        #expect(progress.current == snapshot(0, of: 2))  // neither has started
        before.success(0)  // the counted one starts: its progress replaces its unit
        counted.reportProgress(completed: 4)
        #expect(progress.current == snapshot(4, of: 11))
        #expect(first.progress.current == snapshot(4, of: 10))
        counted.success(1)
        waiting.success(2)
        #expect(progress.current == snapshot(11, of: 11))
        #expect(!progress.current.isFinished)
    }

    // MARK: Callbacks and AsyncSequence

    @Test func callbacksGetTheCurrentValueThenEachChangeAndEndFinished() {
        let promise = Promise<Int, Never>(progressTotal: 4)
        let log = SnapshotLog()
        promise.future.map(immediateExecutionContext) { $0 }.progress.onUpdate(immediateExecutionContext) {
            log.append($0)
        }
        promise.reportProgress(completed: 1)
        promise.reportProgress(completed: 1)  // no change: no call
        promise.reportProgress(completed: 3)
        promise.success(0)
        promise.reportProgress(completed: 2)  // after completion: no call
        // The source completes first (its part reads 4 of 4), then the mapped future finishes.
        #expect(
            log.all == [
                snapshot(0, of: 4), snapshot(1, of: 4), snapshot(3, of: 4), snapshot(4, of: 4),
                snapshot(4, of: 4, finished: true),
            ]
        )
    }

    @Test func callbacksOnAQueueRunThereOneAtATimeAndEndWithTheFinishedSnapshot() async {
        let queue = DispatchQueue(label: "progress.observer")
        let promise = Promise<Int, Never>(progressTotal: 1_000)
        let log = SnapshotLog()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            promise.future.progress.onUpdate(ExecutionContext(queue: queue)) { snapshot in
                dispatchPrecondition(condition: .onQueue(queue))
                log.append(snapshot)
                if snapshot.isFinished { done.resume() }
            }
            for step in 1...1_000 { promise.reportProgress(completed: Int64(step)) }
            promise.success(0)
        }
        #expect(log.all.last == snapshot(1_000, of: 1_000, finished: true))
        #expect(log.fractions == log.fractions.sorted())  // coalesced, never stale
        #expect(log.all.count <= 1_002)
    }

    @Test func concurrentReportersAndObserversAreSafe() async {
        let promises = (0..<4).map { _ in Promise<Int, Never>(progressTotal: 2_000) }
        let all = promises.map(\.future).sequence()
        let log = SnapshotLog()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            all.progress.onUpdate(ExecutionContext(queue: DispatchQueue(label: "progress.concurrent"))) { snapshot in
                log.append(snapshot)
                if snapshot.isFinished { done.resume() }
            }
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                for step in 1...2_000 {
                    promises[index].reportProgress(completed: Int64(step))
                    _ = all.progress.current
                }
                promises[index].success(index)
            }
        }
        #expect(log.all.last == snapshot(8_000, of: 8_000, finished: true))
        #expect(log.fractions == log.fractions.sorted())
    }

    @Test func theAsyncSequenceEndsWhenTheFutureCompletes() async {
        let promise = Promise<Int, Never>(progressTotal: 2)
        let updates = promise.future.progress.updates
        let reader = Task {
            var seen: [ProgressSnapshot] = []
            for await snapshot in updates { seen.append(snapshot) }
            return seen
        }
        promise.reportProgress(completed: 1)
        promise.success(0)
        let seen = await reader.value
        #expect(seen.last == snapshot(2, of: 2, finished: true))
        #expect(seen.count >= 1)
    }

    @Test func cancellingTheConsumingTaskEndsTheAsyncSequence() async {
        let promise = Promise<Int, Never>(progressTotal: 2)
        let tracker = promise.future.progress
        let started = Promise<Void, Never>()
        let reader = Task {
            var count = 0
            for await _ in tracker.updates {
                count += 1
                started.trySuccess(())
            }
            return count
        }
        await started.future.get()
        reader.cancel()
        #expect(await reader.value >= 1)
        #expect(tracker.state.value.observers.isEmpty)  // the sequence's observer was released
        promise.success(0)
    }

    // MARK: Foundation

    @Test func aFoundationProgressFollowsAndItsCancelReachesTheFuture() async {
        let promise = Promise<Int, any Error>(progressTotal: 8)
        let cancelled = Promise<Void, Never>()
        promise.future.onCancellationRequested { cancelled.trySuccess(()) }
        let progress = promise.future.foundationProgress()
        #expect(progress.totalUnitCount == 8)
        promise.reportProgress(completed: 2)
        #expect(progress.completedUnitCount == 2)
        #expect(progress.fractionCompleted == 0.25)
        progress.cancel()
        await cancelled.future.get()  // Foundation runs the cancellation handler on a queue of its own
        #expect(promise.future.isCancellationRequested)
        promise.failure(FuturesError.cancelled)
        #expect(progress.fractionCompleted == 1)
    }

    @Test func aFoundationProgressShowsFractionsAndAnUnknownTotal() {
        let promise = Promise<Int, Never>()
        let progress = promise.future.progress.foundationProgress()
        promise.reportProgress(completed: 3, of: 0)
        #expect(progress.totalUnitCount == -1)
        promise.reportProgress(fraction: 0.5)
        #expect(progress.fractionCompleted == 0.5)
        promise.success(0)
        #expect(progress.fractionCompleted == 1)
    }

    // MARK: Documentation

    @Test func theArticlesExampleReportsTheSumOfItsParts() {
        // ReportingProgress.md, first example
        let images = Promise<[Data], any Error>(progressTotal: 3)
        let metadata = Promise<String, any Error>()
        let page = images.future.zip(metadata.future).map { images, metadata in
            "\(metadata): \(images.count) images"
        }
        page.progress.onUpdate(immediateExecutionContext) { snapshot in
            let percent = Int(snapshot.fractionCompleted * 100)
            print("\(percent)% of \(snapshot.total) units")
        }
        images.reportProgress(completed: 1)  // 25% of 4 units
        metadata.success("Holiday")  // 50% of 4 units
        // end of example
        #expect(page.progress.current == snapshot(2, of: 4))
        images.success([])
    }
}
