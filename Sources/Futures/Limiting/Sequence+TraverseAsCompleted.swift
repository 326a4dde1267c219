extension Sequence where Element: Sendable {
    /// Turns every element into a future with `f`, running at most `maxConcurrent` at once, and delivers
    /// each outcome — success or failure — on a stream as soon as it completes.
    ///
    /// ```swift
    /// let downloads = urls.traverseAsCompleted(maxConcurrent: 4) {
    ///     session.dataFuture(from: $0)
    /// }
    /// for try await (index, result) in downloads {
    ///     switch result {
    ///     case .success(let (data, _)): show(data, for: urls[index])
    ///     case .failure(let error): log(error, for: urls[index])
    ///     }
    /// }
    /// ```
    ///
    /// Where ``traverse(maxConcurrent:_:file:line:f:)`` gives one future of all values and stops at the first
    /// failure, this keeps going and lets you use each outcome at once: every element gets one stream
    /// value `(index, result)`, its position in the sequence and its future's result, in completion
    /// order. The stream finishes after the last one; an empty sequence gives a finished, empty stream.
    /// It keeps every outcome for replay, so a subscriber that arrives late still sees all of them.
    ///
    /// - `f` runs once per element, in the order of the elements, on `context`: with the immediate
    ///   context (the default) on the calling thread for the first `maxConcurrent` elements, then on the
    ///   thread where a running future completed. Built on a ``ConcurrencyLimiter`` of its own, so
    ///   elements completing at once start the next ones in bounded stack.
    /// - `maxConcurrent` below 1 counts as 1.
    /// - **Cancellation:** when `cancellationToken` is cancelled, the stream fails terminally with
    ///   ``FuturesError/cancelled`` at once (`for try await` throws it), elements not yet started are
    ///   dropped without calling `f`, and cancellation of every running element's future is requested
    ///   (as its consumer, GUARANTEES.md G8). Outcomes arriving later are ignored. The same happens
    ///   when the stream's last subscriber leaves before the end: a `for try await` loop left early
    ///   (`break`, `return`, a thrown error) or whose task is cancelled, when no other consumer
    ///   iterates the stream. A consumer that subscribes after the stream finished changes nothing.
    public func traverseAsCompleted<U, E>(
        maxConcurrent: Int,
        _ context: ExecutionContext = immediateExecutionContext,
        cancellationToken: CancellationToken = .never,
        file: StaticString = #fileID,
        line: UInt = #line,
        f: @escaping @Sendable (Element) -> Future<U, E>
    ) -> FutureStream<(index: Int, result: Result<U, E>)> {
        let elements = Array(self)
        let promise = StreamPromise<(index: Int, result: Result<U, E>)>()
        let stream = promise.stream
        guard !elements.isEmpty else {
            promise.finish()
            return stream
        }
        let limiter = ConcurrencyLimiter(maxConcurrent: maxConcurrent, startingOn: context)
        // The one gatherer, keeping nothing of the outcomes (the stream does): it decides when the last
        // one has arrived.
        let arrivals = Gatherer<AllValues<Void>, Never>(
            count: elements.count, mode: .all(failsOnArrival: false), step: "traverseAsCompleted", file: file,
            line: line)
        // Weak: the stream holds `cancel` (as its abandon handler), and the promise holds the stream.
        // Closing the limiter drops the elements not started (whatever `E` is) and asks the running ones.
        let cancel: @Sendable () -> Void = { [weak promise] in
            promise?.finish(throwing: FuturesError.cancelled)
            limiter.close()
        }
        let registration = cancellationToken.onCancellationRequested(cancel)
        // A consumer that leaves early (`break`, a cancelled task) and was the last one cancels too.
        stream.whenAbandoned(cancel)
        arrivals.future.onComplete(immediateExecutionContext) { _ in
            promise.finish()
            registration.dispose()
        }
        for (index, element) in elements.enumerated() {
            // In turn: only closing the limiter (which finishes the stream first) drops an item unrun; its
            // outcome then never comes, and the stream has already ended.
            let outcome = limiter.submitInTurn(file: file, line: line) { () -> Future<U, E> in f(element) }
            // Each outcome goes on the stream as it arrives, before the gatherer counts it: the stream
            // finishes after the last one.
            arrivals.gather(outcome, at: index) { result in
                promise.tryComplete(.success((index, result)))
                return .success(())
            }
        }
        return stream
    }
}
