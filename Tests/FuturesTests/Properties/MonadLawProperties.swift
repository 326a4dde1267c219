import Futures
import PropertyBased
import Testing

/// A generated future: its eventual result, and whether it is completed at once or later.
private struct Source: Sendable, CustomStringConvertible {
    let result: Result<Int, PropError>
    let pending: Bool

    func future(_ work: PropPendingWork) -> PropFuture { work.make(result, pending: pending) }

    var description: String { "\(pending ? "pending" : "completed") \(result)" }
}

private var sources: Generator<Source, some Sequence & SendableMetatype> {
    zip(PropGen.result, Gen.bool).map { Source(result: $0, pending: $1) }
}

/// Builds both sides of a law, completes whatever is pending in the generated order, and checks that
/// both sides end with the same result. When nothing was pending, both sides must already be
/// completed when built (the immediate context runs everything before returning).
private func expectSameOutcome(
    _ work: PropPendingWork,
    order: [Int],
    _ lhs: PropFuture,
    _ rhs: PropFuture,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if work.isEmpty {
        #expect(lhs.isCompleted, "nothing pending, yet the left side is not completed", sourceLocation: sourceLocation)
        #expect(rhs.isCompleted, "nothing pending, yet the right side is not completed", sourceLocation: sourceLocation)
    }
    work.drain(order: order)
    #expect(lhs.result != nil, sourceLocation: sourceLocation)
    #expect(lhs.result == rhs.result, sourceLocation: sourceLocation)
}

@Suite("Properties: functor laws of map and monad laws of flatMap (immediate context)")
struct MonadLawProperties {
    @Test func mapIdentity() async {
        await propertyCheck(count: 200, input: sources, PropGen.order) { source, order in
            let work = PropPendingWork()
            let m = source.future(work)
            let mapped = m.map(immediateExecutionContext) { $0 }
            expectSameOutcome(work, order: order, mapped, m)
            #expect(mapped.result == source.result)
        }
    }

    @Test func mapComposition() async {
        await propertyCheck(count: 200, input: sources, PropGen.linear, PropGen.linear, PropGen.order) {
            source, f, g, order in
            let work = PropPendingWork()
            let m = source.future(work)
            let stepwise = m.map(immediateExecutionContext) { $0 &* f.mul &+ f.add }.map(immediateExecutionContext) {
                $0 &* g.mul &+ g.add
            }
            let composed = m.map(immediateExecutionContext) { ($0 &* f.mul &+ f.add) &* g.mul &+ g.add }
            expectSameOutcome(work, order: order, stepwise, composed)
        }
    }

    @Test func flatMapLeftIdentity() async {
        await propertyCheck(count: 200, input: Gen.int(in: -1000...1000), PropGen.kleisli, PropGen.order) {
            a, k, order in
            let work = PropPendingWork()
            let lhs = PropFuture(value: a).flatMap(immediateExecutionContext) { k($0, work) }
            let rhs = k(a, work)
            expectSameOutcome(work, order: order, lhs, rhs)
            #expect(lhs.result == k.result(a))
        }
    }

    @Test func flatMapRightIdentity() async {
        await propertyCheck(count: 200, input: sources, PropGen.order) { source, order in
            let work = PropPendingWork()
            let m = source.future(work)
            let lhs = m.flatMap(immediateExecutionContext) { PropFuture(value: $0) }
            expectSameOutcome(work, order: order, lhs, m)
            #expect(lhs.result == source.result)
        }
    }

    @Test func flatMapAssociativity() async {
        await propertyCheck(count: 200, input: sources, PropGen.kleisli, PropGen.kleisli, PropGen.order) {
            source, f, g, order in
            let work = PropPendingWork()
            let m = source.future(work)
            let lhs = m.flatMap(immediateExecutionContext) { f($0, work) }.flatMap(immediateExecutionContext) {
                g($0, work)
            }
            let rhs = m.flatMap(immediateExecutionContext) { x in
                f(x, work).flatMap(immediateExecutionContext) { g($0, work) }
            }
            expectSameOutcome(work, order: order, lhs, rhs)
            #expect(lhs.result == source.result.flatMap(f.result).flatMap(g.result))
        }
    }

    /// `map` is `flatMap` followed by a completed future: the two agree on every source.
    @Test func mapIsFlatMapIntoACompletedFuture() async {
        await propertyCheck(count: 200, input: sources, PropGen.linear, PropGen.order) { source, f, order in
            let work = PropPendingWork()
            let m = source.future(work)
            let mapped = m.map(immediateExecutionContext) { $0 &* f.mul &+ f.add }
            let viaFlatMap = m.flatMap(immediateExecutionContext) { PropFuture(value: $0 &* f.mul &+ f.add) }
            expectSameOutcome(work, order: order, mapped, viaFlatMap)
        }
    }
}
