import Foundation

extension ProgressTracker {
    /// A Foundation `Progress` that follows this tracker, for UI that binds to one (a `ProgressView`, an
    /// `NSProgressIndicator`, KVO on `fractionCompleted`).
    ///
    /// Its `totalUnitCount` and `completedUnitCount` are set from every (coalesced) update, on `context`:
    /// pass the main queue's context when the UI observes it there. Whole-unit counts are used as they are;
    /// fractional ones (from ``Promise/reportProgress(fraction:)``) are scaled by 1,000. A total that is not
    /// known yet shows as `-1`, which Foundation reads as indeterminate; when the work finishes the
    /// `Progress` reads complete. To let its `cancel()` reach the work, use
    /// ``Future/foundationProgress(updatingOn:)``.
    ///
    /// On Linux (swift-corelibs-foundation) there is no KVO: read `fractionCompleted` when you need it, or
    /// use ``onUpdate(_:_:)``.
    public func foundationProgress(updatingOn context: ExecutionContext = immediateExecutionContext)
        -> Foundation.Progress
    {
        makeFoundationProgress(updatingOn: context, onCancel: nil)
    }

    func makeFoundationProgress(
        updatingOn context: ExecutionContext,
        onCancel: (@Sendable () -> Void)?
    ) -> Foundation.Progress {
        let progress = Foundation.Progress(totalUnitCount: -1)
        if let onCancel {
            progress.isCancellable = true
            progress.cancellationHandler = onCancel
        } else {
            progress.isCancellable = false
        }
        let box = ProgressBox(progress)
        onUpdate(context) { snapshot in box.apply(snapshot) }
        return progress
    }
}

extension Future {
    /// A Foundation `Progress` that follows this future's ``progress`` (see
    /// ``ProgressTracker/foundationProgress(updatingOn:)``), and whose `cancel()` requests cancellation of
    /// this future (``requestCancellation()``, run where Foundation runs the `Progress`'s
    /// `cancellationHandler`: on a queue of its own, soon after `cancel()` returns). The `Progress` holds
    /// the future weakly.
    public func foundationProgress(updatingOn context: ExecutionContext = immediateExecutionContext)
        -> Foundation.Progress
    {
        progress.makeFoundationProgress(updatingOn: context) { [weak self] in self?.requestCancellation() }
    }
}

/// Carries a Foundation `Progress` into `onUpdate`'s `@Sendable` closure.
private final class ProgressBox: @unchecked Sendable {
    // `@unchecked Sendable`: `Progress` is documented thread-safe (its properties may be set from any
    // thread), and `progress` is a `let`.
    let progress: Foundation.Progress

    init(_ progress: Foundation.Progress) {
        self.progress = progress
    }

    func apply(_ snapshot: ProgressSnapshot) {
        let whole = snapshot.total.rounded() == snapshot.total && snapshot.completed.rounded() == snapshot.completed
        let scale = whole ? 1.0 : 1_000.0
        if snapshot.total > 0 {
            progress.totalUnitCount = Int64((snapshot.total * scale).rounded())
            progress.completedUnitCount = Int64((snapshot.completed * scale).rounded())
        } else {
            progress.totalUnitCount = -1
            progress.completedUnitCount = 0
        }
    }
}
