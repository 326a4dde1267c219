/// A future that a unary combinator (`map`, `flatMap`, `recover`, …) derives from another one, carrying the
/// step that completes it.
///
/// The callback that ``Future/derive(_:step:file:line:_:)`` registers on the source then captures this one
/// object, which Swift passes as the closure's context: no context box is allocated around the step and
/// the future.
@usableFromInline
final class DerivedFuture<U: Sendable, E1: Error, T: Sendable, E: Error>: Future<U, E1>, @unchecked Sendable {
    // `@unchecked Sendable`: `step` is set in `init`, before the future is shared, and taken once in
    // `fire(_:)`, the body of the one callback `derive` registers on the source: a callback runs at most
    // once (G2), on one thread. Nothing else reads or writes it; `deinit`, which destroys what is left,
    // runs after the last reference, the callback's included, is gone. For the same reason no two
    // accesses can overlap, so the runtime's exclusivity check (a call and a per-thread table look-up on
    // every access, 450 instructions per W2s operation) is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    var step: (@Sendable (Result<T, E>, Future<U, E1>) -> Void)?

    @inlinable
    init(step: @escaping @Sendable (Result<T, E>, Future<U, E1>) -> Void) {
        self.step = step
        super.init(cell: nil)
    }

    /// ``Future/init(resolver:)``, which every subclass must provide: the library never creates a derived
    /// future this way. The future has no step (its source never completes it) and `resolver` completes it.
    @usableFromInline
    required convenience init(resolver: (_ complete: @escaping @Sendable (Result<U, E1>) -> Void) -> Void) {
        self.init(step: { _, _ in })
        step = nil
        resolver { [self] result in
            if !self.complete(result) {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(#fileID)", line: #line))
            }
        }
    }

    /// Runs the step with the source's result, releasing it as soon as it has run (G6: a completed future
    /// holds nothing but its result).
    @inlinable
    func fire(_ result: Result<T, E>) {
        guard let step = step.take() else { return }
        step(result, self)
    }
}
