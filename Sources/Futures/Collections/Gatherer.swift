/// How a ``Gatherer`` decides its output from its inputs' results.
@usableFromInline
enum GatherMode: Sendable {
    /// Every input must succeed: the output succeeds with every value, in input order, once all have
    /// succeeded. A failure decides in input order, once every earlier input has succeeded (`sequence`,
    /// `traverse`, `zip`, `settled`), or with `failsOnArrival` as soon as it arrives (the variadic `zip`,
    /// the bounded `traverse`).
    case all(failsOnArrival: Bool)
    /// The first result to arrive decides, success or failure (`firstCompleted`). With
    /// `cancellingOthers`, every other input then gets an explicit cancellation request, before the
    /// output completes.
    case first(cancellingOthers: Bool)
    /// The first success decides, and every other input then gets an explicit cancellation request
    /// before the output completes; when every input has failed, the first input's failure (`race`).
    case firstSuccess
}

/// What a ``Gatherer`` makes of its inputs' values: the output's type and how it is built.
///
/// A type parameter rather than a closure, so that building the output allocates nothing beyond the
/// output itself.
@usableFromInline
protocol GatherShape: Sendable {
    /// The value each input contributes (after its own conversion, for inputs of other types).
    associatedtype Value: Sendable
    /// The output future's value.
    associatedtype Output: Sendable
    /// The output for the values in input order (``GatherMode/all(failsOnArrival:)``), or for the one
    /// deciding value (the first modes).
    static func output(_ values: [Value]) -> Output
}

/// Every value, in input order (`sequence`, `traverse`, `settled`).
@usableFromInline
enum AllValues<Value: Sendable>: GatherShape {
    @inlinable
    static func output(_ values: [Value]) -> [Value] { values }
}

/// The one deciding value (`race`, `firstCompleted`).
@usableFromInline
enum OneValue<Value: Sendable>: GatherShape {
    @inlinable
    static func output(_ values: [Value]) -> Value { values[0] }
}

/// The library's one gatherer: it collects the results of several inputs into one output future.
///
/// Every combinator that waits for several futures is one of its modes (``GatherMode``): `sequence`,
/// `traverse` (unbounded and bounded), `fold`, `settled`, `zip` of any arity, `race`, `firstCompleted`,
/// and the faces' gatherers built on them. So they share one mechanism for what a gatherer must do:
///
/// - each input is registered on through `depend(on:)`, as **one consumer**, so a cancellation request on
///   the output reaches every pending input as that consumer's ask (GUARANTEES.md G8), and a failure of
///   an input counts as observed;
/// - the output is traced and tracked as pending at its caller's `file:line`, with every input as what
///   it waits for (``FailureTrace``, ``FuturesDiagnostics/pendingFutures()``);
/// - the inputs' progress adds up to the output's.
///
/// One preallocated slot per input and, in the "all" mode, a "successful prefix" pointer, all under one
/// lock: each slot is written once and the pointer only moves forward, so the total work is linear in
/// the number of inputs whatever the completion order. The deciding event returns what to do; the output
/// is completed, the losers asked and the slots released after the lock.
@usableFromInline
final class Gatherer<Shape: GatherShape, E: Error>: Sendable {
    @usableFromInline
    typealias T = Shape.Value

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var slots: [Result<T, E>?]
        /// Every slot before this index holds a success (the "all" mode).
        @usableFromInline var prefix = 0
        /// How many inputs have failed (``GatherMode/firstSuccess``).
        @usableFromInline var failures = 0
        @usableFromInline var isDone = false
        /// Work units done so far (slot writes, prefix moves, values copied out); tests check linearity.
        @usableFromInline var steps = 0

        @inlinable
        init(slots: [Result<T, E>?]) {
            self.slots = slots
        }

        /// What to do once the output is decided.
        @usableFromInline
        enum Decision {
            /// Every input succeeded: the slots, in input order.
            case values([Result<T, E>?])
            /// The output fails; the slots are released after the lock.
            case failure(E, [Result<T, E>?])
            /// One input decided (a first mode); `asking` the others first.
            case winner(Result<T, E>, index: Int, asking: Bool)
        }

        /// The event "input `index` completed with `result`": the decision, once.
        @inlinable
        mutating func arrive(_ result: Result<T, E>, at index: Int, mode: GatherMode) -> Decision? {
            guard !isDone else { return nil }
            steps += 1
            switch mode {
            case .all(let failsOnArrival):
                if failsOnArrival, case .failure(let error) = result {
                    isDone = true
                    return .failure(error, slots.moveOutAll())
                }
                slots[index] = result
                while prefix < slots.count, let slot = slots[prefix] {
                    steps += 1
                    if case .failure(let error) = slot {
                        isDone = true
                        return .failure(error, slots.moveOutAll())
                    }
                    prefix += 1
                }
                guard prefix == slots.count else { return nil }
                steps += slots.count
                isDone = true
                return .values(slots.moveOutAll())
            case .first(let cancellingOthers):
                isDone = true
                return .winner(result, index: index, asking: cancellingOthers)
            case .firstSuccess:
                if case .success = result {
                    isDone = true
                    return .winner(result, index: index, asking: true)
                }
                slots[index] = result
                failures += 1
                guard failures == slots.count, let first = slots[0] else { return nil }
                isDone = true
                slots = []
                return .winner(first, index: 0, asking: false)
            }
        }
    }

    /// The output.
    @usableFromInline
    let future = Future<Shape.Output, E>()
    @usableFromInline
    let state: LockedBox<State>
    @usableFromInline
    let mode: GatherMode
    /// The output's trace node, when it is traced: each input gathered later is linked to it.
    @usableFromInline
    let traced: TraceNode?
    /// The inputs a first mode asks to cancel once another decided (weak: the gatherer never keeps an
    /// input alive); empty in the "all" mode.
    @usableFromInline
    let rivals: [WeakFuture<T, E>]

    /// A gatherer of `count` inputs, traced as `step` at `file`:`line`; the inputs come with
    /// ``gather(_:at:)`` (or its converting forms).
    @inlinable
    init(
        count: Int,
        mode: GatherMode,
        rivals: [Future<T, E>] = [],
        step: StaticString,
        file: StaticString,
        line: UInt
    ) {
        let needsSlots: Bool
        switch mode {
        case .all, .firstSuccess: needsSlots = true
        case .first: needsSlots = false
        }
        state = LockedBox(State(slots: needsSlots ? Array(repeating: nil, count: count) : []))
        self.mode = mode
        switch mode {
        case .all: self.rivals = []
        case .first(let cancellingOthers): self.rivals = cancellingOthers ? rivals.map { WeakFuture($0) } : []
        case .firstSuccess: self.rivals = rivals.map { WeakFuture($0) }
        }
        traced = FailureTracing.isOn ? FailureTracing.gathered(future, name: step, file: file, line: line) : nil
        if count == 0, case .all = mode { future.complete(.success(Shape.output([]))) }
    }

    /// Work units done so far; grows linearly with the number of inputs.
    var steps: Int { state.value.steps }

    /// Starts gathering `inputs`, in order, and returns the gatherer (its output is ``future``).
    @inlinable
    static func start(
        _ inputs: [Future<T, E>],
        mode: GatherMode,
        step: StaticString,
        file: StaticString,
        line: UInt
    ) -> Gatherer {
        let gatherer = Gatherer(count: inputs.count, mode: mode, rivals: inputs, step: step, file: file, line: line)
        var progress = false
        for (index, input) in inputs.enumerated() where gatherer.gather(input, at: index) {
            progress = true
        }
        // The "all" mode's output is the sum of its inputs; a first mode's is one of them.
        if progress, case .all = mode { ProgressLink.aggregate(inputs, into: gatherer.future) }
        return gatherer
    }

    /// Gathers `input` into slot `index`, as one consumer of it: its result is recorded now if it has
    /// one, else when it completes, and a cancellation request on ``future`` reaches it as that
    /// consumer's ask.
    ///
    /// - Returns: Whether `input` has side data (progress) to aggregate.
    @inlinable
    @discardableResult
    func gather(_ input: Future<T, E>, at index: Int) -> Bool {
        if let traced { FailureTracing.gatheredInput(input, into: traced) }
        if input.ifCompleted({ record($0, at: index) }) != nil {
            // Decided without waiting: still one consumer of the input, so that the outcome does not
            // depend on timing (G8) and a later failure counts as observed (G10). A completed input
            // takes no registration.
            return false
        }
        return future.depend(on: input, link: .gathered) { [self] in record($0, at: index) }.hasExtras
    }

    /// Gathers `input`, of another type, into slot `index` as `convert` turns its result into one of
    /// this gatherer's (the `zip`s gather each input as `any Sendable`); otherwise as ``gather(_:at:)``.
    /// `convert` runs once, when the input's result arrives, just before it is recorded.
    @inlinable
    @discardableResult
    func gather<S: Sendable, SE: Error>(
        _ input: Future<S, SE>,
        at index: Int,
        converting convert: @escaping @Sendable (Result<S, SE>) -> Result<T, E>
    ) -> Bool {
        if let traced { FailureTracing.gatheredInput(input, into: traced) }
        if input.ifCompleted({ record(convert($0), at: index) }) != nil { return false }
        return future.depend(on: input, link: .gathered) { [self] in record(convert($0), at: index) }.hasExtras
    }

    /// Gathers every outcome of `input`, of any failure type, into slot `index` as a success (`settled`,
    /// whose gatherer cannot fail); otherwise as ``gather(_:at:)``.
    @inlinable
    @discardableResult
    func gatherOutcome<S: Sendable, SE: Error>(_ input: Future<S, SE>, at index: Int) -> Bool
    where T == Result<S, SE> {
        if let traced { FailureTracing.gatheredInput(input, into: traced) }
        if input.ifCompleted({ record(.success($0), at: index) }) != nil { return false }
        return future.depend(on: input, link: .gathered) { [self] in record(.success($0), at: index) }.hasExtras
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

    /// Records one input's result; acts on the decision, after the lock: the losers are asked before the
    /// output completes (code that reacts to the output runs after), and the values array is built and
    /// the slots released outside the lock (a value's `deinit` may complete another input, which then
    /// finds the gatherer done).
    @inlinable
    func record(_ result: Result<T, E>, at index: Int) {
        guard let decision = state.withValue({ $0.arrive(result, at: index, mode: mode) }) else { return }
        switch decision {
        case .values(var slots):
            var values: [T] = []
            values.reserveCapacity(slots.count)
            for case .success(let value)? in slots {
                values.append(value)
            }
            slots = []
            future.complete(.success(Shape.output(values)))
        case .failure(let error, _):
            future.complete(.failure(error))
        case .winner(let result, let winner, let asking):
            if asking {
                for (index, rival) in rivals.enumerated() where index != winner {
                    // An explicit request: the inputs were handed over (`race`,
                    // `firstCompleted(cancellingOthers: true)`), so the losers' work stops even if someone
                    // else observes them; asking as one consumer would make that depend on timing.
                    rival.future?.requestCancellation()
                }
            }
            future.complete(result.map { Shape.output([$0]) })
        }
    }
}

/// A weak reference to a future, for a gatherer that asks inputs it must not keep alive.
@usableFromInline
struct WeakFuture<T: Sendable, E: Error>: Sendable {
    @usableFromInline
    weak var future: Future<T, E>?

    @inlinable
    init(_ future: Future<T, E>) {
        self.future = future
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
