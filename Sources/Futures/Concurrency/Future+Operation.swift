extension Future {
    /// Runs `operation` in a new Swift `Task` and completes the future with what it returns or throws.
    ///
    /// ```swift
    /// // Future<Profile, any Error>
    /// let profile = Future { try await api.fetchProfile(id) }
    /// // cannot fail
    /// let answer = Future<Int, Never> { await model.compute() }
    /// ```
    ///
    /// Told apart from `Future { complete in … }` (``init(file:line:resolver:)``) by the closure taking
    /// no argument. The error type follows `operation`'s typed throws: an untyped `throws` gives
    /// `any Error`, a non-throwing closure `Never`.
    ///
    /// **Cancellation:** ``requestCancellation()`` on this future (directly, or through
    /// ``requestCancellation(when:)``) cancels the Swift task. `operation` observes it like any
    /// cancelled task (`Task.isCancelled`, `Task.checkCancellation()`, cancellation handlers) and the
    /// future completes with whatever it then returns or throws (typically `CancellationError`).
    ///
    /// - Parameters:
    ///   - priority: The task's priority; inherited from the caller if `nil`.
    ///   - operation: Runs in the new task (not on the caller's actor). It and everything it captures
    ///     are released when it finishes.
    ///   - file: The caller's file, for ``FailureTrace`` and the pending-futures report (leave the default).
    ///   - line: The caller's line, for ``FailureTrace`` and the pending-futures report (leave the default).
    public convenience init(
        priority: TaskPriority? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        operation: @escaping @Sendable () async throws(E) -> T
    ) {
        self.init()
        if FailureTracing.isOn {
            FailureTracing.produced(self, name: "Future", site: CallSite(file: file, line: line))
        }
        let task = Task(priority: priority) { [self] in
            let result: Result<T, E>
            do throws(E) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            self.complete(result)
        }
        onCancellationRequested { task.cancel() }
    }
}
