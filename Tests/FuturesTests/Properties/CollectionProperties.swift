import Futures
import PropertyBased
import Testing

/// One input of a collection combinator: its result, whether it is pending at first, and a key that
/// decides when it completes (pending inputs complete in increasing key order).
private struct Input: Sendable, CustomStringConvertible {
    let result: Result<Int, PropError>
    let pending: Bool
    let key: Int

    var description: String { "\(pending ? "pending#\(key)" : "completed") \(result)" }
}

private var inputLists: Generator<[Input], some Sequence & SendableMetatype> {
    zip(PropGen.result, Gen.bool(0.6), Gen.int(in: 0...1000))
        .map { Input(result: $0, pending: $1, key: $2) }
        .array(of: 0...12)
}

/// The array counterpart of `sequence()`: every value in list order, or the first failure in list order.
private func arraySequence(_ results: [Result<Int, PropError>]) -> Result<[Int], PropError> {
    var values: [Int] = []
    for result in results {
        switch result {
        case .success(let value): values.append(value)
        case .failure(let error): return .failure(error)
        }
    }
    return .success(values)
}

/// What `sequence()` has decided once the inputs `completed` are completed: nothing while an input is
/// pending ahead of every failure; else all values, or the first failure in list order.
private func decided(_ inputs: [Input], completed: Set<Int>) -> Result<[Int], PropError>? {
    var values: [Int] = []
    for (index, input) in inputs.enumerated() {
        guard completed.contains(index) else { return nil }
        switch input.result {
        case .success(let value): values.append(value)
        case .failure(let error): return .failure(error)
        }
    }
    return .success(values)
}

/// Creates the input futures; returns them, their promises (by index) and the completion order.
private func makeFutures(
    _ inputs: [Input]
) -> (futures: [PropFuture], promises: [Int: Promise<Int, PropError>], order: [Int]) {
    var futures: [PropFuture] = []
    var promises: [Int: Promise<Int, PropError>] = [:]
    for (index, input) in inputs.enumerated() {
        if input.pending {
            let promise = Promise<Int, PropError>()
            promises[index] = promise
            futures.append(promise.future)
        } else {
            futures.append(PropFuture(result: input.result))
        }
    }
    let order = inputs.indices.filter { inputs[$0].pending }.sorted { (inputs[$0].key, $0) < (inputs[$1].key, $1) }
    return (futures, promises, order)
}

/// Completes the pending inputs one by one in their generated order; before the first and after every
/// step, `check` receives what the model has decided so far.
private func drive(
    _ inputs: [Input],
    _ promises: [Int: Promise<Int, PropError>],
    order: [Int],
    check: (_ decided: Result<[Int], PropError>?) -> Void
) {
    var completed = Set(inputs.indices.filter { !inputs[$0].pending })
    check(decided(inputs, completed: completed))
    for index in order {
        promises[index]!.complete(inputs[index].result)
        completed.insert(index)
        check(decided(inputs, completed: completed))
    }
}

@Suite("Properties: sequence, traverse and fold against their array counterparts")
struct CollectionProperties {
    /// `sequence()` decides exactly when the model does (no earlier, no later: its documentation says it
    /// completes on the thread that completes the deciding future), with the array counterpart's result.
    @Test func sequenceMatchesTheArrayCounterpartAtEveryStep() async {
        await propertyCheck(count: 300, input: inputLists) { inputs in
            let (futures, promises, order) = makeFutures(inputs)
            let sequenced = futures.sequence()
            drive(inputs, promises, order: order) { decided in
                #expect(sequenced.result.map(\.isSuccess) == decided.map(\.isSuccess))
                #expect(sequenced.result == decided)
            }
            #expect(sequenced.result == arraySequence(inputs.map(\.result)))
        }
    }

    @Test func traverseMatchesTheArrayCounterpart() async {
        await propertyCheck(count: 300, input: inputLists, PropGen.linear) { inputs, f in
            let (futures, promises, order) = makeFutures(inputs)
            let calls = PropLocked(0)
            let traversed = futures.indices.traverse(immediateExecutionContext) { index in
                calls.withLock { $0 += 1 }
                return futures[index].map(immediateExecutionContext) { $0 &* f.mul &+ f.add }
            }
            #expect(calls.current == inputs.count, "traverse calls f once per element, before it returns")
            drive(inputs, promises, order: order) { decided in
                #expect(traversed.isCompleted == (decided != nil))
            }
            let expected = arraySequence(inputs.map(\.result)).map { $0.map { $0 &* f.mul &+ f.add } }
            #expect(traversed.result == expected)
        }
    }

    /// `fold` with a non-commutative step: the values are folded in list order, once each, only on
    /// success; a failure is the first one in list order.
    @Test func foldMatchesReduceOnTheArrayCounterpart() async {
        await propertyCheck(count: 300, input: inputLists, Gen.int(in: -100...100)) { inputs, zero in
            let (futures, promises, order) = makeFutures(inputs)
            let steps = PropLocked<[Int]>([])
            let folded = futures.fold(immediateExecutionContext, zero: zero) { (acc: Int, value: Int) -> Int in
                steps.withLock { $0.append(value) }
                return acc &* 31 &+ value
            }
            drive(inputs, promises, order: order) { decided in
                #expect(folded.isCompleted == (decided != nil))
            }
            let expected = arraySequence(inputs.map(\.result))
            #expect(folded.result == expected.map { $0.reduce(zero) { $0 &* 31 &+ $1 } })
            #expect(steps.current == ((try? expected.get()) ?? []))
        }
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
