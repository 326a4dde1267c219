/// The write side of a ``CancellationToken``: create one per cancellable operation, hand its
/// ``token`` to the producers, and call ``cancel()`` when the result is no longer wanted.
///
/// ```swift
/// let source = CancellationSource()
/// let thumbnails = loadThumbnails(cancellationToken: source.token)
/// // later, when the user leaves the screen:
/// source.cancel()
/// ```
///
/// Backed by one core cell, like every future: ``cancel()`` is that cell's cancellation request.
/// When the source is deallocated (or ``dispose()`` is called) before cancelling, every registered
/// handler is released without running, since nobody can cancel any more.
public final class CancellationSource: Sendable {
    /// The cell; it stays pending until ``dispose()`` or deinit, and cancel() is its cancellation request.
    let cell = Future<Void, Never>()
    /// Bumped by every `cancel(afterDelay:)`, so only the latest scheduled cancellation fires.
    let delayGeneration = LockedBox<Int>(0)

    /// Creates a source whose token is not cancelled.
    public init() {}

    deinit {
        cell.complete(.success(()))
    }

    /// The token producers observe.
    public var token: CancellationToken {
        CancellationToken(signal: cell)
    }

    /// `true` once ``cancel()`` was called (before any ``dispose()``).
    public var isCancellationRequested: Bool {
        cell.isCancellationRequested
    }

    /// Requests cancellation: the token's handlers run now, on the calling thread, each once.
    /// Later calls, and calls after ``dispose()``, do nothing.
    public func cancel() {
        cell.requestCancellation()
    }

    /// Releases every registered handler without running it; ``cancel()`` does nothing afterwards and
    /// the token stays as it is. Idempotent.
    public func dispose() {
        cell.complete(.success(()))
    }
}
