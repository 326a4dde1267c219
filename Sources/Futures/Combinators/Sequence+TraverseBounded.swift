import Dispatch

extension Sequence where Element: Sendable {
    /// Turns every element into a future with `f`, running at most `maxConcurrent` of them at once,
    /// and collects their values in the order of the elements.
    ///
    /// ```swift
    /// let pages = urls.traverse(maxConcurrent: 4) { session.dataFuture(from: $0) }
    /// ```
    ///
    /// BrightFutures' `traverse(_:f:)` starts every future at once; this variant starts the next element
    /// only when a running one has completed, so never more than `maxConcurrent` futures of `f` are
    /// pending at the same time (values below 1 count as 1).
    ///
    /// - `f` runs on `context` (by default a global queue, as BrightFutures' `traverse`), once per
    ///   element, in the order of the elements.
    /// - Success: all values, in element order; an empty sequence succeeds with `[]` at once.
    /// - Failure: the first failure to arrive fails the result at once; no further element is started
    ///   and cancellation of the futures still running is requested.
    /// - Cancellation: a request on the returned future is passed on to the running futures. If the
    ///   failure type can hold ``FuturesError/cancelled`` (`any Error`, `FuturesError`), no further
    ///   element is started and the result fails with it at once; otherwise the traversal goes on and
    ///   ends as the cancelled futures decide.
    /// - Memory: the traversal holds its running futures weakly; they (through their callbacks) and
    ///   the tasks queued on `context` keep it alive. If every running future is abandoned by its
    ///   producer (none can complete any more), the traversal is released and the returned future
    ///   stays pending.
    public func traverse<U, E>(
        maxConcurrent: Int,
        _ context: ExecutionContext = ExecutionContext(queue: .global()),
        f: @escaping @Sendable (Element) -> Future<U, E>
    ) -> Future<[U], E> {
        let traversal = BoundedTraversal(
            elements: Array(self),
            maxConcurrent: Swift.max(maxConcurrent, 1),
            context: context,
            transform: f
        )
        traversal.start()
        return traversal.future
    }
}

/// The state of one ``Swift/Sequence/traverse(maxConcurrent:_:f:)``.
///
/// Ownership (no cycles): the running futures' callbacks and the tasks queued on the context hold the
/// traversal; it holds the returned future, and the running futures only weakly; the returned future's
/// cancellation handler holds it weakly.
private final class BoundedTraversal<Element: Sendable, U: Sendable, E: Error>: Sendable {
    let future = Future<[U], E>()
    private let count: Int
    private let maxConcurrent: Int
    private let context: ExecutionContext

    private let lock = ParkingLock()
    // `nonisolated(unsafe)`: the following are only read and written between `lock.lock()` and
    // `lock.unlock()`.
    //
    // The elements and `f` until the traversal stops or every element has succeeded; released then
    // (G6), so that an element still running that captured what `f` captured is no cycle.
    nonisolated(unsafe) private var work: (elements: [Element], transform: @Sendable (Element) -> Future<U, E>)?
    nonisolated(unsafe) private var values: [U?]
    nonisolated(unsafe) private var nextIndex = 0
    nonisolated(unsafe) private var running = 0
    nonisolated(unsafe) private var succeeded = 0
    nonisolated(unsafe) private var stopped = false
    nonisolated(unsafe) private var pending: [Int: ConsumerAsk<U, E>] = [:]

    init(
        elements: [Element],
        maxConcurrent: Int,
        context: ExecutionContext,
        transform: @escaping @Sendable (Element) -> Future<U, E>
    ) {
        self.count = elements.count
        self.maxConcurrent = maxConcurrent
        self.context = context
        self.work = (elements, transform)
        self.values = Array(repeating: nil, count: elements.count)
        self.pending.reserveCapacity(Swift.min(maxConcurrent, elements.count))
    }

    func start() {
        if count == 0 {
            work = nil
            future.complete(.success([]))
            return
        }
        future.onCancellationRequested { [weak self] in self?.cancel() }
        launch()
    }

    /// Claims free slots and starts their elements on `context`.
    private func launch() {
        while true {
            lock.lock()
            guard !stopped, running < maxConcurrent, nextIndex < count else {
                lock.unlock()
                return
            }
            let index = nextIndex
            nextIndex += 1
            running += 1
            lock.unlock()
            if context.isImmediate {
                // `f` is user code: run it on the trampoline, so that items completing at once (which
                // launch the next ones from their callbacks) nest a bounded number of frames.
                Trampoline.run({ run(index) }, orQueue: { [self] in run(index) })
            } else {
                context.execute { [self] in run(index) }
            }
        }
    }

    private func run(_ index: Int) {
        lock.lock()
        let work = stopped ? nil : work
        lock.unlock()
        guard let work else { return }
        let item = work.transform(work.elements[index])
        lock.lock()
        let stoppedMeanwhile = stopped
        if !stoppedMeanwhile { pending[index] = ConsumerAsk(item) }
        lock.unlock()
        if stoppedMeanwhile {
            item.askToCancelUnneeded()
            return
        }
        item.whenComplete(immediateExecutionContext) { [self] result in
            switch result {
            case .success(let value):
                lock.lock()
                values[index] = value
                pending[index] = nil
                running -= 1
                succeeded += 1
                var all: [U?] = []
                var finished: (elements: [Element], transform: @Sendable (Element) -> Future<U, E>)?
                if succeeded == count {
                    swap(&all, &values)
                    swap(&finished, &self.work)
                }
                lock.unlock()
                _ = consume finished  // the user's closure and elements are released outside the lock
                if !all.isEmpty {
                    future.complete(.success(all.map { $0! }))
                } else {
                    launch()
                }
            case .failure(let error):
                let others = stop()
                future.complete(.failure(error))
                for other in others { other.ask() }
            }
        }
    }

    /// Stops launching; returns the consumer asks of the items still pending (each asks at most once).
    private func stop() -> [ConsumerAsk<U, E>] {
        var others: [Int: ConsumerAsk<U, E>] = [:]
        var unused: (elements: [Element], transform: @Sendable (Element) -> Future<U, E>)?
        lock.lock()
        stopped = true
        swap(&others, &pending)
        swap(&unused, &work)
        lock.unlock()
        _ = consume unused  // released outside the lock
        return Array(others.values)
    }

    private func cancel() {
        if let error = Future<[U], E>.cancellationError {
            let others = stop()
            future.complete(.failure(error))
            for other in others { other.ask() }
        } else {
            lock.lock()
            let others = pending
            lock.unlock()
            for other in others.values { other.ask() }
        }
    }
}

/// A running item of a bounded traversal, held weakly (its producer keeps it alive).
