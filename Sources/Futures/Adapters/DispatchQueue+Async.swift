import Dispatch

extension DispatchQueue {
    /// Runs `execute` asynchronously on this queue and returns a future of its return value.
    ///
    /// ```swift
    /// DispatchQueue.global().asyncValue { fibonacci(50) }
    ///     .onSuccess { print($0) }
    /// ```
    public func asyncValue<T>(
        file: StaticString = #fileID, line: UInt = #line, _ execute: @escaping @Sendable () -> T
    ) -> Future<T, Never> {
        let future = Future<T, Never>.produced("asyncValue", file: file, line: line)
        async(execute: traced { future.complete(.success(execute())) })
        return future
    }

    /// Runs `execute` asynchronously on this queue and returns a future of the `Result` it returns, so
    /// the work can fail.
    public func asyncResult<T, E>(
        file: StaticString = #fileID, line: UInt = #line, _ execute: @escaping @Sendable () -> Result<T, E>
    ) -> Future<T, E> {
        let future = Future<T, E>.produced("asyncResult", file: file, line: line)
        async(execute: traced { future.complete(execute()) })
        return future
    }

    /// Runs `execute` on this queue at `deadline` (the library's timer, then `async`) and returns a future of its return value.
    public func asyncValueAfter<T>(
        _ deadline: DispatchTime, file: StaticString = #fileID, line: UInt = #line,
        execute: @escaping @Sendable () -> T
    ) -> Future<T, Never> {
        let future = Future<T, Never>.produced("asyncValueAfter", file: file, line: line)
        let wait = Duration.nanoseconds(
            Int64(clamping: deadline.uptimeNanoseconds) - Int64(clamping: DispatchTime.now().uptimeNanoseconds))
        let work = traced { future.complete(.success(execute())) }
        ClockTimer(after: deadline == .distantFuture ? .longestTimerWait : wait, on: ContinuousClock()) {
            self.async(execute: work)
        }
        return future
    }
}

/// `task`, bound to the trace context current here when the `ServiceContext` trait is on (see
/// `ContextTravel`); `task` itself otherwise.
private func traced(_ task: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    #if ServiceContext
        return ContextTravel.bound(task)
    #else
        return task
    #endif
}
