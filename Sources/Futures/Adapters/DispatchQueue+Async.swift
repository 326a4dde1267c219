import Dispatch

extension DispatchQueue {
    /// Runs `execute` asynchronously on this queue and returns a future of its return value.
    ///
    /// ```swift
    /// DispatchQueue.global().asyncValue { fibonacci(50) }.onSuccess { print($0) }
    /// ```
    public func asyncValue<T>(_ execute: @escaping @Sendable () -> T) -> Future<T, Never> {
        let future = Future<T, Never>()
        async { future.complete(.success(execute())) }
        return future
    }

    /// Runs `execute` asynchronously on this queue and returns a future of the `Result` it returns, so
    /// the work can fail.
    public func asyncResult<T, E>(_ execute: @escaping @Sendable () -> Result<T, E>) -> Future<T, E> {
        let future = Future<T, E>()
        async { future.complete(execute()) }
        return future
    }

    /// Runs `execute` on this queue at `deadline` (`asyncAfter`) and returns a future of its return value.
    public func asyncValueAfter<T>(_ deadline: DispatchTime, execute: @escaping @Sendable () -> T) -> Future<T, Never> {
        let future = Future<T, Never>()
        asyncAfter(deadline: deadline) { future.complete(.success(execute())) }
        return future
    }
}
