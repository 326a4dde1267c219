/// Gathers the results of `count` futures, by index, into one `Future<[T], E>` in O(n).
///
/// One preallocated slot per input and a "successful prefix" pointer, all under one lock. The returned
/// future succeeds with every value in list order once all have succeeded, and fails with the first
/// failure **in list order** as soon as every earlier future has succeeded (so a failure behind a
/// pending future waits for it, exactly like BrightFutures' chained `flatMap`s, without their O(n²)
/// array copies). Each slot is written once and the prefix pointer only moves forward, so the total work
/// is linear whatever the completion order.
///
/// Made with `failsOnFirstArrival`, it fails with the first failure to arrive instead, whatever its
/// position (``Swift/Sequence/traverse(maxConcurrent:_:f:)``, which stops at once); inputs can then also
/// be added one at a time (``gather(_:at:)``), and the result failed from outside (``fail(_:askingFirst:)``).
@usableFromInline
final class SequenceCollector<T: Sendable, E: Error>: Sendable {
    @usableFromInline
    struct State: Sendable {
        @usableFromInline var slots: [Result<T, E>?]
        /// Every slot before this index holds a success.
        @usableFromInline var prefix = 0
        @usableFromInline var isDone = false
        /// Work units done so far (slot writes, prefix moves, values copied out); tests check linearity.
        @usableFromInline var steps = 0

        @inlinable
        init(slots: [Result<T, E>?]) {
            self.slots = slots
        }
    }

    @usableFromInline
    let future = Future<[T], E>()
    @usableFromInline
    let state: LockedBox<State>
    /// Whether a failure decides the outcome as soon as it arrives (else once every earlier input has
    /// succeeded).
    @usableFromInline
    let failsOnFirstArrival: Bool

    @inlinable
    init(count: Int, failsOnFirstArrival: Bool = false) {
        state = LockedBox(State(slots: Array(repeating: nil, count: count)))
        self.failsOnFirstArrival = failsOnFirstArrival
    }

    /// Work units done so far; grows linearly with the number of inputs.
    var steps: Int { state.value.steps }

    /// Starts collecting `futures`; the result is ``future``.
    @inlinable
    static func collect(
        _ futures: [Future<T, E>],
        step: StaticString = "sequence",
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> SequenceCollector {
        let collector = SequenceCollector(count: futures.count)
        if futures.isEmpty {
            collector.future.complete(.success([]))
            return collector
        }
        if FailureTracing.isOn {
            let traced = FailureTracing.gathered(collector.future, name: step, file: file, line: line)
            for input in futures { FailureTracing.gatheredInput(input, into: traced) }
        }
        var progress = false
        for (index, input) in futures.enumerated() {
            if collector.gather(input, at: index) { progress = true }
        }
        if progress { ProgressLink.aggregate(futures, into: collector.future) }
        return collector
    }

    /// Collects `input` into slot `index`, as one consumer of it: its result is recorded now if it has
    /// one, else when it completes, and a cancellation request on ``future`` is forwarded to it.
    ///
    /// - Returns: Whether `input` has side data (progress) to aggregate.
    @inlinable
    @discardableResult
    func gather(_ input: Future<T, E>, at index: Int) -> Bool {
        if input.ifCompleted({ record($0, at: index) }) != nil { return false }
        return future.depend(on: input, link: .gathered) { [self] in record($0, at: index) }.hasExtras
    }

    /// Collects `input`, of another value type, into slot `index` as `transform` maps its value (the
    /// variadic `zip` gathers each pack element as `any Sendable`); otherwise as ``gather(_:at:)``.
    @inlinable
    @discardableResult
    func gather<S: Sendable>(
        _ input: Future<S, E>, at index: Int, as transform: @escaping @Sendable (S) -> T
    ) -> Bool {
        if input.ifCompleted({ record($0.map(transform), at: index) }) != nil { return false }
        return future.depend(on: input, link: .gathered) { [self] in record($0.map(transform), at: index) }.hasExtras
    }

    /// Fails ``future`` with `error` unless the outcome is decided already; later results are ignored.
    ///
    /// `askingFirst` runs once the outcome is decided and before ``future`` completes: whatever gives up
    /// on the inputs asks them first (a result that arrives meanwhile is ignored), so the code that
    /// reacts to the failure runs after the inputs were asked.
    func fail(_ error: E, askingFirst: () -> Void = {}) {
        let slots = state.withValue { state -> [Result<T, E>?]? in
            guard !state.isDone else { return nil }
            state.isDone = true
            return state.slots.moveOutAll()
        }
        guard slots != nil else { return }
        _ = consume slots  // the values collected so far are released outside the lock
        askingFirst()
        future.complete(.failure(error))
    }

    /// Starts collecting every outcome of `futures`, as values of a collector that cannot fail: each
    /// input's result fills its slot as a success, so the prefix runs to the end and ``future`` succeeds
    /// with all outcomes in list order once every input has completed.
    @inlinable
    static func collectSettled<S, SE>(_ futures: [Future<S, SE>]) -> SequenceCollector
    where T == Result<S, SE>, E == Never {
        let collector = SequenceCollector(count: futures.count)
        if futures.isEmpty {
            collector.future.complete(.success([]))
            return collector
        }
        var progress = false
        for (index, input) in futures.enumerated() {
            if input.ifCompleted({ collector.record(.success($0), at: index) }) == nil {
                let registration = collector.future.depend(on: input, link: .gathered) {
                    collector.record(.success($0), at: index)
                }
                if registration.hasExtras { progress = true }
            }
        }
        if progress { ProgressLink.aggregate(futures, into: collector.future) }
        return collector
    }

    /// Stores one input's result; completes ``future`` when the outcome is decided.
    ///
    /// The slots are moved out under the lock; the values array is built, and the slots released, after
    /// it: a collected value's `deinit` may complete another input (which then finds the collector done).
    @inlinable
    func record(_ result: Result<T, E>, at index: Int) {
        let decided = state.withValue { state -> (slots: [Result<T, E>?], failure: E?)? in
            guard !state.isDone else { return nil }
            if failsOnFirstArrival, case .failure(let error) = result {
                state.steps += 1
                state.isDone = true
                return (state.slots.moveOutAll(), error)
            }
            state.slots[index] = result
            state.steps += 1
            while state.prefix < state.slots.count, let slot = state.slots[state.prefix] {
                state.steps += 1
                if case .failure(let error) = slot {
                    state.isDone = true
                    return (state.slots.moveOutAll(), error)
                }
                state.prefix += 1
            }
            guard state.prefix == state.slots.count else { return nil }
            state.steps += state.slots.count
            state.isDone = true
            return (state.slots.moveOutAll(), nil)
        }
        guard var decided else { return }
        if let failure = decided.failure {
            future.complete(.failure(failure))
            return
        }
        var values: [T] = []
        values.reserveCapacity(decided.slots.count)
        for case .success(let value)? in decided.slots {
            values.append(value)
        }
        decided.slots = []
        future.complete(.success(values))
    }
}

extension Array {
    /// Moves the elements out, leaving the array empty (the storage is not copied).
    @inlinable
    mutating func moveOutAll() -> [Element] {
        var taken: [Element] = []
        swap(&self, &taken)
        return taken
    }
}
