extension FutureStream: AsyncSequence {
    /// The values of the stream.
    public typealias Element = T
    /// A per-element failure, or the terminal failure, ends iteration by being thrown.
    public typealias Failure = any Error

    /// Starts a consumer: it subscribes now, so it gets the replay of the results kept at this moment,
    /// then every later result, then the end.
    ///
    /// Any number of consumers may iterate one stream at once, each independently. A per-element
    /// failure is thrown (and ends that consumer's loop); to see failures as values, iterate
    /// ``results`` instead. A consumer that leaves its loop (`break`, `return`, a thrown error) or
    /// whose task is cancelled is unsubscribed and released; a cancelled task's loop simply ends.
    /// A consumer slower than its producers buffers the values it has not taken yet (none is dropped:
    /// every consumer sees every value once); the stream itself still keeps only `capacity` results.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(consumer: StreamConsumer(self))
    }

    /// Iterates a ``FutureStream``'s values; see ``FutureStream/makeAsyncIterator()``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let consumer: StreamConsumer<T>

        /// The next value, `nil` at the end (or once the task is cancelled); throws a failed result.
        public mutating func next() async throws -> T? {
            switch await consumer.next() {
            case nil, .end(nil):
                return nil
            case .end(let error?):
                throw error
            case .element(.success(let value)):
                return value
            case .element(.failure(let error)):
                consumer.stop()
                throw error
            }
        }
    }

    /// The stream's results, values and failures alike, as an `AsyncSequence` that does not throw.
    ///
    /// Each iteration subscribes on its own (replay, then live results); a terminal failure is
    /// delivered as a last `.failure` element, then the iteration ends.
    public var results: Results { Results(stream: self) }

    /// The results of a ``FutureStream`` as an `AsyncSequence`; see ``FutureStream/results``.
    public struct Results: AsyncSequence, Sendable {
        let stream: FutureStream<T>

        /// Starts a consumer of `stream`: replay, then live results, then the end.
        public func makeAsyncIterator() -> Iterator {
            Iterator(consumer: StreamConsumer(stream))
        }

        /// Iterates the results of a ``FutureStream``.
        public struct Iterator: AsyncIteratorProtocol {
            let consumer: StreamConsumer<T>
            var ended = false

            /// The next result, or `nil` at the end (or once the task is cancelled).
            public mutating func next() async -> Result<T, any Error>? {
                guard !ended else { return nil }
                switch await consumer.next() {
                case nil, .end(nil):
                    ended = true
                    return nil
                case .end(let error?):
                    ended = true
                    return .failure(error)
                case .element(let result):
                    return result
                }
            }
        }
    }
}

/// One `for await` consumer of a stream: a subscription on the immediate context that buffers what
/// the consumer has not taken yet, and at most one waiting task.
///
/// Its owner is the iterator; when the iterator goes away (loop left), `deinit` unsubscribes. The
/// stream's handler holds it weakly, so the stream never keeps a finished loop alive.
final class StreamConsumer<T: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable`: all mutable state below is only touched inside `lock.withLock`;
    // continuations are resumed after unlocking.
    private let lock = ParkingLock()
    /// Events not taken yet from `head` on; a taken one is moved out (left `nil`), so trimming the
    /// buffer under the lock never releases an event.
    private var buffer: ContiguousArray<StreamEvent<T>?> = []
    private var head = 0
    private var waiter: Waiter?
    private var isStopped = false
    private var subscription: StreamSubscription?

    /// A task waiting in ``next()``.
    private typealias Waiter = UnsafeContinuation<StreamEvent<T>?, Never>

    init(_ stream: FutureStream<T>) {
        let subscription = stream.subscribe(context: immediateExecutionContext) { [weak self] event in
            self?.receive(event)
        }
        lock.withLock { self.subscription = subscription }
    }

    deinit {
        _ = subscription?.cancel()
    }

    private func receive(_ event: StreamEvent<T>) {
        // The waiting task to resume with `event`, if one waits; otherwise `event` is buffered (or dropped
        // once stopped).
        let waiting = lock.withLock { () -> Waiter? in
            if isStopped { return nil }
            if case .end = event { isStopped = true }
            if let waiter {
                self.waiter = nil
                return waiter
            }
            buffer.append(event)
            return nil
        }
        waiting?.resume(returning: event)
    }

    /// Takes the next buffered event, or waits for one; `nil` once stopped (or the task is cancelled).
    func next() async -> StreamEvent<T>? {
        if Task.isCancelled {
            stop()
            return nil
        }
        if let event = takeBuffered() { return event }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<StreamEvent<T>?, Never>) in
                // What to resume with now (a buffered event, or `nil` once stopped); none: the task waits.
                let ready = lock.withLock { () -> StreamEvent<T>?? in
                    if head < buffer.count { return .some(popLocked()) }
                    if isStopped { return .some(nil) }
                    waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            stop()
        }
    }

    private func takeBuffered() -> StreamEvent<T>?? {
        lock.withLock { () -> StreamEvent<T>?? in
            if head < buffer.count { return .some(popLocked()) }
            if isStopped { return .some(nil) }
            return nil
        }
    }

    private func popLocked() -> StreamEvent<T> {
        let event = buffer[head].take()!
        head += 1
        if case .end = event { isStopped = true }
        if head == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.count <= 64)
            head = 0
        } else if head >= 64 && head * 2 >= buffer.count {
            buffer.removeFirst(head)
            head = 0
        }
        return event
    }

    /// Unsubscribes, drops what is buffered, and ends a waiting `next()` with `nil`.
    func stop() {
        let (dropped, waiter, subscription) = lock.withLock {
            () -> (ContiguousArray<StreamEvent<T>?>, Waiter?, StreamSubscription?) in
            isStopped = true
            let dropped = buffer
            buffer = []
            head = 0
            let waiter = self.waiter
            self.waiter = nil
            return (dropped, waiter, self.subscription)
        }
        // The events not taken are released here, outside the lock.
        _ = consume dropped
        waiter?.resume(returning: nil)
        _ = subscription?.cancel()
    }
}
