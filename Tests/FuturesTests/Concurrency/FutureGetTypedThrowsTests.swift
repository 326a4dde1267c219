import Testing

@testable import Futures

private enum LoadError: Error, Equatable {
    case offline
}

/// Runs `body` in a Swift task that is already cancelled.
private func inACancelledTask<R: Sendable>(_ body: @escaping @Sendable () async -> R) async -> R {
    await Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return await body()
    }.value
}

/// `get(onTaskCancellation:)` throws exactly what its policy lets out: each `do throws(…)` below only
/// compiles if the thrown type is the one named.
@Suite("get(onTaskCancellation:) uses typed throws")
struct FutureGetTypedThrowsTests {
    @Test func aFutureThatCannotFailThrowsOnlyCancellationErrorWhenItStopsWaiting() async {
        let never = Future<Int, Never>()
        let outcome = await inACancelledTask { () -> Result<Int, CancellationError> in
            do throws(CancellationError) {
                return .success(try await never.get(onTaskCancellation: .stopWaiting))
            } catch {
                return .failure(error)
            }
        }
        #expect(throws: CancellationError.self) { try outcome.get() }
    }

    @Test func aFutureThatCannotFailDoesNotThrowWhenItKeepsWaiting() async {
        let kept: Int = await Future<Int, Never>(value: 1).get(onTaskCancellation: .keepWaiting)
        let requested: Int = await inACancelledTask {
            await Future<Int, Never>(value: 2).get(onTaskCancellation: .requestCancellation)
        }
        #expect(kept == 1 && requested == 2)
    }

    @Test func aTypedFutureThrowsItsOwnErrorWhenItKeepsWaiting() async {
        let failed = Future<Int, LoadError>(error: .offline)
        for policy in [TaskCancellationPolicy<LoadError, LoadError>.keepWaiting, .requestCancellation] {
            do throws(LoadError) {
                _ = try await failed.get(onTaskCancellation: policy)
                Issue.record("a failed future throws")
            } catch {
                #expect(error == .offline)
            }
        }
    }

    @Test func aTypedFutureThatStopsWaitingThrowsItsErrorOrCancellationError() async {
        let failed = Future<Int, LoadError>(error: .offline)
        do throws(any Error) {
            _ = try await failed.get(onTaskCancellation: .stopWaiting)
        } catch let error as LoadError {
            #expect(error == .offline)
        } catch {
            Issue.record("unexpected \(error)")
        }
        let pending = Future<Int, LoadError>()
        let stopped = await inACancelledTask { () -> (any Error)? in
            do {
                _ = try await pending.get(onTaskCancellation: .stopWaiting)
                return nil
            } catch {
                return error
            }
        }
        #expect(stopped is CancellationError)
    }

    @Test func anUntypedFutureThrowsAnyError() async {
        let untyped = Future<Int, any Error>(error: LoadError.offline)
        await #expect(throws: LoadError.offline) { try await untyped.get(onTaskCancellation: .stopWaiting) }
    }
}
