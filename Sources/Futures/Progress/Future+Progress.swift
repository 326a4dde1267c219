extension Future {
    /// The progress of this future: what its producer reported, passed on or added up by the
    /// combinators it was derived with.
    ///
    /// A future whose producer reports nothing, and that was not derived from one that does, has a
    /// progress of one unit, done when it completes. A completed future's progress reads complete
    /// (``ProgressSnapshot/isFinished``). The first ask on such a future allocates its tracker; futures
    /// nobody asks pay nothing. Progress reaches a derived future only if its source had progress when it
    /// was derived: see ``Promise/init(progressTotal:file:line:)``.
    public var progress: ProgressTracker {
        if let tracker = ProgressLink.tracker(of: self) { return tracker }
        return ProgressLink.attach(ProgressTracker.unit(), to: self)
    }
}

extension Promise {
    /// Creates a promise whose future reports progress: `progressTotal` units, none done yet.
    ///
    /// Declare progress here, at creation: futures derived from ``future`` (by `map`, `flatMap`,
    /// `sequence`, `zip`, …) carry progress only if their source had it when they were derived. Reporting on
    /// a promise created without it still works for ``future`` itself, but futures derived from it
    /// earlier see one unit, done at completion.
    ///
    /// - Parameters:
    ///   - progressTotal: The units in all (bytes, files, steps), or `0` if not known yet (a later report
    ///     can set it). A negative total is taken as `0`.
    ///   - file: Where the promise is created, for diagnostics (see ``init(file:line:)``).
    ///   - line: The line of that place.
    public convenience init(progressTotal: Int64, file: StaticString = #fileID, line: UInt = #line) {
        self.init(file: file, line: line)
        let total = Double(max(0, progressTotal))
        ProgressLink.attach(
            ProgressTracker(ProgressState(own: ProgressState.Part(completed: 0, total: total), ownIsImplicit: false)),
            to: future
        )
    }

    /// Reports that `completed` units are done, of `total` if given (else of the total declared before).
    ///
    /// Observers run after this call has left every lock, on their own contexts (see ``ProgressTracker``).
    /// Bad input has one outcome each: a report with a negative count is ignored; `completed` above a known
    /// total is taken as the total; a report after the future completed is ignored (its progress reads
    /// complete).
    public func reportProgress(completed: Int64, of total: Int64? = nil) {
        guard completed >= 0, (total ?? 0) >= 0 else { return }
        report { own in
            if let total { own.total = Double(total) }
            own.completed = own.total > 0 ? min(Double(completed), own.total) : Double(completed)
        }
    }

    /// Reports the fraction of the work done, between `0` and `1`.
    ///
    /// With a known total the fraction is of it; without one the future's work counts as one unit. A
    /// fraction outside `0...1` is clamped into it; a non-finite one (NaN, infinity) is ignored; a report
    /// after the future completed is ignored.
    public func reportProgress(fraction: Double) {
        guard fraction.isFinite else { return }
        let fraction = min(1, max(0, fraction))
        report { own in
            if own.total <= 0 { own.total = 1 }
            own.completed = fraction * own.total
        }
    }

    private func report(_ update: (inout ProgressState.Part) -> Void) {
        let tracker = future.progress
        tracker.change { state in
            var own =
                state.ownIsImplicit
                ? ProgressState.Part(completed: 0, total: 0) : state.own ?? .init(completed: 0, total: 0)
            update(&own)
            state.own = own
            state.ownIsImplicit = false
        }
    }
}
