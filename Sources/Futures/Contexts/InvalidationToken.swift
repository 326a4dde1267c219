import Synchronization

/// Something that can tell whether callbacks guarded by it may still run.
///
/// BrightFutures' protocol for invalidation tokens; ``InvalidationToken`` is the implementation to use.
public protocol InvalidationTokenType: Sendable {
    /// Whether the token is invalid: callbacks registered through ``validContext`` no longer run.
    var isInvalid: Bool { get }

    /// A future that fails with ``BrightFuturesError/invalidationTokenInvalidated`` when the token
    /// becomes invalid; it never succeeds.
    var future: Future<Never, BrightFuturesError<Never>> { get }
}

/// An invalidation token that can be invalidated by hand.
public protocol ManualInvalidationTokenType: InvalidationTokenType {
    /// Invalidates the token. Idempotent.
    func invalidate()
}

extension InvalidationTokenType {
    /// A context that runs tasks on ``defaultContext()`` (as chosen now) while the token is valid.
    ///
    /// The check happens when the task runs, on that context: a callback whose turn comes after
    /// ``ManualInvalidationTokenType/invalidate()`` is skipped, and only that callback. The callbacks
    /// registered after it on the same future still run. A transform (`map`, `flatMap`, …) skipped this
    /// way leaves its returned future pending forever (like BrightFutures).
    public var validContext: ExecutionContext {
        validContext(defaultContext())
    }

    /// A context that runs tasks on `parent` while the token is valid, and skips them once it is not.
    ///
    /// The check happens on `parent`, right before the task would run. Called directly
    /// (`token.validContext(.main) { … }`) the task is simply dropped once the token is invalid.
    public func validContext(_ parent: ExecutionContext) -> ExecutionContext {
        parent.gated { [self] in !self.isInvalid }
    }

    /// A context that runs tasks on the context function `parent` while the token is valid.
    ///
    /// Same as `validContext(_:)` with an `ExecutionContext` with `ExecutionContext(parent)`.
    public func validContext(_ parent: @escaping ExecutionContextFunction) -> ExecutionContext {
        validContext(ExecutionContext(parent))
    }
}

/// Prevents callbacks from running once it is invalidated; for views that are reused, such as cells.
///
/// ```swift
/// final class MyCell: UICollectionViewCell {
///     var token = InvalidationToken()
///
///     override func prepareForReuse() {
///         super.prepareForReuse()
///         token.invalidate()
///         token = InvalidationToken()
///     }
///
///     func setModel(model: Model) {
///         ImageLoader.loadImage(model.image).onSuccess(token.validContext) { [weak self] image in
///             self?.imageView.image = image
///         }
///     }
/// }
/// ```
///
/// Invalidating a token does not cancel the work a future represents: the result is merely ignored by
/// the callbacks registered through the token. Invalidating after a callback has run changes nothing.
/// The token is thread-safe: invalidate it and check it from any thread.
public final class InvalidationToken: ManualInvalidationTokenType {
    private let invalid = Atomic<Bool>(false)

    /// A future that fails with ``BrightFuturesError/invalidationTokenInvalidated`` on ``invalidate()``.
    public let future = Future<Never, BrightFuturesError<Never>>()

    /// Creates a valid token.
    public init() {}

    /// Whether ``invalidate()`` has been called.
    public var isInvalid: Bool {
        invalid.load(ordering: .acquiring)
    }

    /// Invalidates the token: callbacks guarded by it that have not started yet will not run, and
    /// ``future`` fails. Calling it again does nothing.
    public func invalidate() {
        guard !invalid.exchange(true, ordering: .acquiringAndReleasing) else { return }
        future.complete(.failure(.invalidationTokenInvalidated))
    }
}
