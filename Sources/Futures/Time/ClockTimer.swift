/// Runs `body` once `clock` reaches `deadline`, from a Swift `Task` sleeping on that clock.
///
/// Cancelling the returned task stops the sleep and `body` never runs. Every time-based operator of the
/// library is built on this, so each of them runs on whatever clock it is given: a real one, or a test
/// clock advanced by hand.
@discardableResult
func runAt<C: Clock>(
    _ deadline: C.Instant,
    on clock: C,
    _ body: @escaping @Sendable () -> Void
) -> Task<Void, Never> {
    Task {
        do {
            try await clock.sleep(until: deadline, tolerance: nil)
        } catch {
            return
        }
        body()
    }
}

extension Future {
    /// The cancellation error the library uses for a future of this failure type, if it can hold one.
    ///
    /// `FuturesError.cancelled` for `any Error` and `FuturesError` futures; `nil` for failure types that
    /// cannot express it (such as `Never`).
    static var cancellationError: E? {
        FuturesError.cancelled as? E
    }
}
