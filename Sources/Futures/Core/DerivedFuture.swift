/// A future that a unary combinator (`map`, `flatMap`, `recover`, …) derives from another one: it carries
/// what completes it from the source's result, and ``fire(_:)`` is the one method the callback that
/// ``Future/derive(into:_:step:file:line:)`` registers on the source calls.
///
/// That callback captures the derived future alone, which Swift passes as the closure's context: no context
/// box is allocated around the future and what it carries.
@usableFromInline
protocol DerivedStep<SourceResult>: AnyObject, Sendable {
    associatedtype SourceResult
    /// Completes this future from the source's result, releasing what it carried for that (G6).
    func fire(_ result: SourceResult)
}

/// The derived future of a combinator whose work is a step written in the library (``Future/derive(_:step:file:line:_:)``):
/// `filter`, `asVoid`, `fold`, `andThen`, ….
@usableFromInline
final class DerivedFuture<U: Sendable, E1: Error, T: Sendable, E: Error>: Future<U, E1>, DerivedStep,
    @unchecked Sendable
{
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
        resolveWith(resolver)
    }

    /// Runs the step with the source's result, releasing it as soon as it has run (G6: a completed future
    /// holds nothing but its result).
    @inlinable
    func fire(_ result: Result<T, E>) {
        guard let step = step.take() else { return }
        step(result, self)
    }
}

/// What a derived future does with its source's result: complete with a result, or follow a future.
@frozen
@usableFromInline
package enum DerivedOutcome<Value: Sendable, Failure: Error> {
    /// Complete with this result.
    case result(Result<Value, Failure>)
    /// Take this future's result as its own, as one of its consumers.
    case follow(Future<Value, Failure>)
}

/// A combinator that carries its caller's closure (`map`, `flatMap`, `mapError`, `recover`, `recoverWith`,
/// `andThen`, the casts, `filter`), written once: a caseless enum named after the combinator, whose static
/// `outcome(of:with:)` is the combinator's work. ``Future/derive(_:with:_:step:file:line:)-(_,(Form.Input)->Form.Output,_,_,_,_)``
/// decides where that work runs: right away when the source has completed (on the immediate context), else
/// in the derived future when the source completes. No combinator writes the two paths itself.
///
/// A form refines one of two protocols by the shape of its caller's closure, because the derived future
/// stores that closure in a field of the caller's own function type (see ``TransformFuture``).
@usableFromInline
package protocol DerivationForm: SendableMetatype {
    /// The derived future's value.
    associatedtype Value: Sendable
    /// The derived future's error.
    associatedtype Failure: Error
    /// The source's value.
    associatedtype Source: Sendable
    /// The source's error.
    associatedtype SourceFailure: Error
    /// What the caller's closure receives.
    associatedtype Input
}

/// The form of a combinator whose caller's closure returns a value (`map`, `mapError`, `recover`, `andThen`,
/// the casts, `filter`; the throwing forms, whose closure is wrapped to return a `Result`).
@usableFromInline
protocol TransformForm: DerivationForm {
    /// What the caller's closure returns.
    associatedtype Output
    /// The combinator's work: what the derived future completes with, from the source's `result`,
    /// running `transform` if the combinator does on that result.
    static func outcome(
        of result: Result<Source, SourceFailure>, with transform: (Input) -> Output
    ) -> DerivedOutcome<Value, Failure>
}

/// The form of a combinator whose caller's closure returns a value and may throw (the throwing `map`,
/// `recover` and `withFilter`): what the closure throws fails the derived future, whose failure is therefore
/// `any Error`. The closure is kept as the caller wrote it (a wrapper catching its error would be a closure
/// of its own, one allocation more).
@usableFromInline
protocol ThrowingTransformForm: DerivationForm where Failure == any Error {
    /// What the caller's closure returns.
    associatedtype Output
    /// The combinator's work: what the derived future completes with, from the source's `result`,
    /// running `transform` if the combinator does on that result; what it throws is the failure.
    static func outcome(
        of result: Result<Source, SourceFailure>, with transform: (Input) throws -> Output
    ) -> DerivedOutcome<Value, any Error>
}

/// The form of a combinator whose caller's closure returns the future to continue with (`flatMap`,
/// `recoverWith`, `flatten`).
@usableFromInline
package protocol FollowForm: DerivationForm {
    /// The combinator's work: what the derived future completes with or follows, from the source's
    /// `result`, calling `next` if the combinator does on that result.
    static func outcome(
        of result: Result<Source, SourceFailure>, with next: (Input) -> Future<Value, Failure>
    ) -> DerivedOutcome<Value, Failure>
}

/// The derived future of a ``TransformForm`` combinator, when its source is pending: it stores the
/// caller's closure itself, and its `Form` does the combinator's work with it.
///
/// Storing the closure in a field of the caller's own function type is what saves a box: a step wrapping
/// it would capture it, and Swift would allocate a context for that step; a field of a generic type (one
/// class for every form) would take the closure through a reabstraction thunk, and every access through
/// the class's runtime layout.
@usableFromInline
final class TransformFuture<Form: TransformForm>: Future<Form.Value, Form.Failure>, DerivedStep, @unchecked Sendable {
    // `@unchecked Sendable`: as for `DerivedFuture`'s `step`, `transform` is set in `init`, before the
    // future is shared, and taken once in `fire(_:)`, which runs at most once (G2), on one thread; no two
    // accesses overlap, so the exclusivity check is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    var transform: (@Sendable (Form.Input) -> Form.Output)?

    @inlinable
    init(transform: consuming (@Sendable (Form.Input) -> Form.Output)?) {
        self.transform = consume transform
        super.init(cell: nil)
    }

    /// ``Future/init(resolver:)``, which every subclass must provide: the library never creates a derived
    /// future this way. The future has no closure (its source never completes it) and `resolver`
    /// completes it.
    @usableFromInline
    required convenience init(
        resolver: (_ complete: @escaping @Sendable (Result<Form.Value, Form.Failure>) -> Void) -> Void
    ) {
        self.init(transform: nil)
        resolveWith(resolver)
    }

    /// Does the combinator's work with the source's result and the caller's closure, releasing the
    /// closure (and what it captured) as soon as it has run (G6).
    @inlinable
    func fire(_ result: Result<Form.Source, Form.SourceFailure>) {
        guard let transform = transform.take() else { return }
        // Called through a non-escaping closure: handed to `outcome` itself, the closure taken out of the
        // field was copied around the call (a retain and a release per step).
        settle(Form.outcome(of: result, with: { transform($0) }))
    }
}

/// The derived future of a ``ThrowingTransformForm`` combinator, when its source is pending:
/// ``TransformFuture`` for a closure that may throw.
@usableFromInline
final class ThrowingTransformFuture<Form: ThrowingTransformForm>: Future<Form.Value, any Error>, DerivedStep,
    @unchecked Sendable
{
    // `@unchecked Sendable`: as for `TransformFuture`.
    @usableFromInline
    @exclusivity(unchecked)
    var transform: (@Sendable (Form.Input) throws -> Form.Output)?

    @inlinable
    init(transform: consuming (@Sendable (Form.Input) throws -> Form.Output)?) {
        self.transform = consume transform
        super.init(cell: nil)
    }

    /// ``Future/init(resolver:)``, which every subclass must provide: the library never creates a derived
    /// future this way. The future has no closure (its source never completes it) and `resolver`
    /// completes it.
    @usableFromInline
    required convenience init(
        resolver: (_ complete: @escaping @Sendable (Result<Form.Value, any Error>) -> Void) -> Void
    ) {
        self.init(transform: nil)
        resolveWith(resolver)
    }

    /// Does the combinator's work with the source's result and the caller's closure, releasing the
    /// closure (and what it captured) as soon as it has run (G6).
    @inlinable
    func fire(_ result: Result<Form.Source, Form.SourceFailure>) {
        guard let transform = transform.take() else { return }
        settle(Form.outcome(of: result, with: { try transform($0) }))
    }
}

/// The derived future of a ``FollowForm`` combinator, when its source is pending: ``TransformFuture`` for
/// a closure that returns a future (a class, returned directly, where a generic result is returned
/// indirectly: a field of ``TransformFuture``'s type would need a thunk).
@usableFromInline
final class FollowFuture<Form: FollowForm>: Future<Form.Value, Form.Failure>, DerivedStep, @unchecked Sendable {
    // `@unchecked Sendable`: as for `TransformFuture`.
    @usableFromInline
    @exclusivity(unchecked)
    var next: (@Sendable (Form.Input) -> Future<Form.Value, Form.Failure>)?

    @inlinable
    init(next: consuming (@Sendable (Form.Input) -> Future<Form.Value, Form.Failure>)?) {
        self.next = consume next
        super.init(cell: nil)
    }

    /// ``Future/init(resolver:)``, which every subclass must provide: the library never creates a derived
    /// future this way. The future has no closure (its source never completes it) and `resolver`
    /// completes it.
    @usableFromInline
    required convenience init(
        resolver: (_ complete: @escaping @Sendable (Result<Form.Value, Form.Failure>) -> Void) -> Void
    ) {
        self.init(next: nil)
        resolveWith(resolver)
    }

    /// Does the combinator's work with the source's result and the caller's closure, releasing the
    /// closure (and what it captured) as soon as it has run (G6).
    @inlinable
    func fire(_ result: Result<Form.Source, Form.SourceFailure>) {
        guard let next = next.take() else { return }
        settle(Form.outcome(of: result, with: { next($0) }))
    }
}

extension Future {
    /// Completes this future as `outcome` says: with its result, or with the result of the future it
    /// follows (as one consumer of it).
    @inlinable
    final func settle(_ outcome: DerivedOutcome<T, E>) {
        switch outcome {
        case .result(let result): complete(result)
        case .follow(let next): completeWith(next)
        }
    }
}

extension Future {
    /// The body of a derived future's `init(resolver:)`: `resolver` completes this future, and a second
    /// completion is reported as misuse.
    @usableFromInline
    final func resolveWith(_ resolver: (_ complete: @escaping @Sendable (Result<T, E>) -> Void) -> Void) {
        resolver { [self] result in
            if !self.complete(result) {
                FuturesDiagnostics.report(.futureCompletedTwice(file: "\(#fileID)", line: #line))
            }
        }
    }
}
