extension ConcurrencyLimiter {
    /// The progress of the work submitted from the first ask on: the sum of every item's progress.
    ///
    /// Created at the first ask, it covers items submitted from then on (earlier items are not in it).
    /// Each item counts as one unit until its work starts; then as the progress of the future its work
    /// returned, if that future reports progress (else still one unit, done when it completes). The
    /// total grows as items are submitted, and the progress never finishes: its
    /// ``ProgressTracker/updates`` end only when the consuming task is cancelled. An item removed by
    /// cancellation counts as done.
    public var progress: ProgressTracker {
        if let tracker = state.value.progress { return tracker }
        let fresh = ProgressTracker.aggregate()  // allocated outside the lock
        return state.withValue { state in
            if let tracker = state.progress { return tracker }
            state.progress = fresh
            return fresh
        }
    }
}
