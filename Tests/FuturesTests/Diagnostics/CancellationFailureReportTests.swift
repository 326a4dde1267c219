import Testing

@testable import Futures

/// A failure that a cancellation caused is not an unobserved failure; in the serialized suite of
/// unobserved failures, since the policy is process-wide.
extension UnobservedFailureTests {
    /// A promise that fails its future with `error` when asked to cancel.
    func work(failingWith error: any Error) -> Promise<Int, any Error> {
        let promise = Promise<Int, any Error>()
        promise.onCancellationRequested { promise.failure(error) }
        return promise
    }

    /// The reports raised on this task while `limited` (asked to cancel, or not) is released after its
    /// timer: the timer's task holds it until it stops, so the test waits until it holds the only
    /// reference and then drops it here, under the handler.
    func reportsDroppingTimeout<T, E>(asking: Bool, _ limited: () -> Future<T, E>) async -> [FuturesDiagnostic] {
        let previous = FuturesDiagnostics.unobservedFailures
        FuturesDiagnostics.unobservedFailures = .report
        defer { FuturesDiagnostics.unobservedFailures = previous }
        let log = GLog<FuturesDiagnostic>()
        var held: Future<T, E>? = limited()
        if asking { held?.requestCancellation() }
        var yields = 0
        while !isKnownUniquelyReferenced(&held!) && yields < 1_000_000 {
            yields += 1
            await Task.yield()
        }
        #expect(yields < 1_000_000, "the timer's task never let the future go")
        FuturesDiagnostics.withHandler({ log.append($0) }) { held = nil }
        return log.values.filter { if case .unobservedFailure = $0 { true } else { false } }
    }

    @Test(.hangGuard()) func aTimeoutAskedToCancelWhoseInputFailsWithCancelledIsNotReported() async {
        let input = work(failingWith: FuturesError.cancelled)
        let found = await reportsDroppingTimeout(asking: true) { input.future.timeout(after: .seconds(3600)) }
        #expect(found.isEmpty)
    }

    @Test(.hangGuard()) func aTypedTimeoutAskedToCancelIsNotReported() async {
        let input = Promise<Int, FuturesError>()
        input.onCancellationRequested { input.failure(.cancelled) }
        let found = await reportsDroppingTimeout(asking: true) {
            input.future.map(immediateExecutionContext) { $0 + 1 }.timeout(after: .seconds(3600))
        }
        #expect(found.isEmpty)
    }

    @Test(.hangGuard()) func aTimeoutWhoseInputFailsForRealIsStillReported() async {
        let input = work(failingWith: ComboError.first)
        let found = await reportsDroppingTimeout(asking: false) {
            let limited = input.future.timeout(after: .seconds(3600))
            input.failure(ComboError.second)
            return limited
        }
        #expect(found.count == 1)
    }

    @Test func aChainAskedToCancelThatFailsWithCancellationErrorIsNotReported() {
        let found = reports {
            let input = work(failingWith: CancellationError())
            input.future.map(immediateExecutionContext) { $0 + 1 }.requestCancellation()
        }
        #expect(found.isEmpty)
    }

    @Test(.hangGuard()) func aRealFailureAfterARequestIsStillReported() async {
        let input = work(failingWith: ComboError.first)
        let found = await reportsDroppingTimeout(asking: true) { input.future.timeout(after: .seconds(3600)) }
        #expect(found.count == 1)
    }
}
