/// How progress travels between futures. Every entry point here is called only when an input's
/// `hasExtras` bit was seen set during a registration that locked it anyway, so futures that nobody
/// reports progress on never get here (see *Progress* in ARCHITECTURE.md).
@usableFromInline
enum ProgressLink {
    /// The tracker of `future`, if it has one.
    static func tracker<T, E>(of future: Future<T, E>) -> ProgressTracker? {
        FutureExtras.entry(of: future)?.progress as? ProgressTracker
    }

    /// The tracker of `future`, giving it `fresh` if it has none; a new tracker is finished when the future
    /// completes.
    @discardableResult
    static func attach<T, E>(_ fresh: ProgressTracker, to future: Future<T, E>) -> ProgressTracker {
        let (tracker, created) = FutureExtras.update(future) { entry -> (ProgressTracker, Bool) in
            if let existing = entry.progress as? ProgressTracker { return (existing, false) }
            entry.progress = fresh
            return (fresh, true)
        }
        if created {
            future.observe(immediateExecutionContext) { _ in tracker.finish() }
        }
        return tracker
    }

    /// `derived` was just derived from `source` (map, flatMap, recover, …): it passes `source`'s progress
    /// on. Called by `Future.derive` when `source` has extras.
    @usableFromInline
    static func derive<T, E, U, E1>(from source: Future<T, E>, to derived: Future<U, E1>) {
        guard let sourceTracker = tracker(of: source) else { return }
        let tracker = ProgressTracker.aggregate()
        sourceTracker.feed(tracker, slot: tracker.addPart())
        attach(tracker, to: derived)
    }

    /// `follower` now completes with `followed`'s result (`completeWith`, the inner future of `flatMap`):
    /// `followed`'s progress becomes a part of `follower`'s. Called when `followed` has extras.
    @usableFromInline
    static func follow<T, E, U, E1>(_ followed: Future<T, E>, by follower: Future<U, E1>) {
        guard let followedTracker = tracker(of: followed) else { return }
        let tracker = attach(ProgressTracker.unit(), to: follower)
        followedTracker.feed(tracker, slot: tracker.addPart())
    }

    /// Adds `input` as a part of `tracker`: its own progress if it has one, else one unit done when it
    /// completes.
    static func include<T, E>(_ input: Future<T, E>, in tracker: ProgressTracker) {
        let slot = tracker.addPart()
        if let inputTracker = Self.tracker(of: input) {
            inputTracker.feed(tracker, slot: slot)
        } else {
            input.observe(immediateExecutionContext) { _ in
                tracker.setPart(slot, ProgressSnapshot(completed: 1, total: 1, isFinished: true), version: .max)
            }
        }
    }

    /// Adds a limiter's item to the limiter's `tracker`: one unit until its work starts, then what its work
    /// reports (``follow(_:by:)`` adds that to the item's tracker).
    static func includeItem<T, E>(_ item: Future<T, E>, in tracker: ProgressTracker) {
        attach(ProgressTracker.unit(), to: item).feed(tracker, slot: tracker.addPart())
    }

    /// `result` collects `inputs` (sequence, traverse): its progress is the sum of theirs. Called when at
    /// least one input has extras.
    ///
    /// Side data is not always progress (a failure trace, a failed promise's site): without a tracker on
    /// any input there is nothing to aggregate, and no part is made for each input.
    @usableFromInline
    static func aggregate<T, E, R, RE>(_ inputs: [Future<T, E>], into result: Future<R, RE>) {
        guard inputs.contains(where: { Self.tracker(of: $0) != nil }) else { return }
        let tracker = ProgressTracker.aggregate()
        for input in inputs { include(input, in: tracker) }
        attach(tracker, to: result)
    }

    /// `result` zips `first` and `second`: its progress is the sum of theirs. Called when either has extras.
    @usableFromInline
    static func aggregate<T, U, E, R, RE>(_ first: Future<T, E>, _ second: Future<U, E>, into result: Future<R, RE>) {
        let tracker = ProgressTracker.aggregate()
        include(first, in: tracker)
        include(second, in: tracker)
        attach(tracker, to: result)
    }
}
