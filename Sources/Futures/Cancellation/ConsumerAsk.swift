import Synchronization

/// One consumer's request that `source` be cancelled, made at most once whichever of its paths decides
/// it first (a request on the derived future, a timer firing, a failure elsewhere).
///
/// A source counts each consumer's ask once (GUARANTEES.md G8): asking twice for one consumer would
/// cancel shared work under a consumer that still waits. Holds the source weakly.
@usableFromInline
final class ConsumerAsk<S: Sendable, SE: Error>: Sendable {
    weak let source: Future<S, SE>?
    private let asked = Atomic<Bool>(false)

    @usableFromInline
    init(_ source: Future<S, SE>) {
        self.source = source
    }

    /// Asks the source to cancel, as this consumer, unless this consumer asked already.
    @usableFromInline
    func ask() {
        guard !asked.exchange(true, ordering: .relaxed) else { return }
        source?.consumerRequestsCancellation()
    }
}
