import BrightFutures
import Synchronization
import Testing

// `AsyncType`'s `andThen`, `delay` (both forms), `init(other:)`, `flatten` and a sequence's `firstCompleted`, called from
// generic code as BrightFutures' users call them, on a core `Future` and on a subclass of it (as a face
// makes its own: BoltsSwift's `Task`): the value they return has the outcome of its input, is of the
// class the API promises (`Self`, the elements' type), and passes a cancellation request on to its input
// as one consumer's ask, whichever class the input is.

private let now = BrightFutures.immediateExecutionContext

/// A subclass of the core's future, as a face makes its own cell class: no stored property, every
/// initializer inherited (`init(resolver:)`, which `AsyncType` requires, included).
private final class Subclass<T: Sendable>: Future<T, any Error>, @unchecked Sendable {
    // `@unchecked Sendable`: the class adds no stored property, so all its state is the `Future`'s, whose
    // own proof (every mutable field under the cell's lock) covers it.
}

/// A pending value of type `A`, made as generic code makes one (`A { complete in … }`), and the function
/// that completes it.
private func pending<A: AsyncType>(_: A.Type) -> (value: A, complete: @Sendable (A.Value) -> Void) {
    var complete: (@Sendable (A.Value) -> Void)?
    let value = A { complete = $0 }
    return (value, complete!)
}

/// One of the `Self`-returning members, called through generic code.
private enum Combinator: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case andThen, delay, delayOnQueue, firstCompleted, initOther

    var testDescription: String { rawValue }

    /// The member called on `input` from code that knows only that `A` is an `AsyncType`.
    func call<A: AsyncType>(_ input: A) -> A {
        switch self {
        case .andThen: input.andThen(context: now) { _ in }
        case .delay: input.delay(.milliseconds(5))
        case .delayOnQueue: input.delay(.global(), interval: .milliseconds(5))
        case .firstCompleted: [input].firstCompleted()
        case .initOther: A(other: input)
        }
    }
}

/// `flatten`, called through generic code.
private func flattened<A: AsyncType, I: AsyncType>(_ outer: A) -> Future<Int, any Error>
where A.Value == Result<I, any Error>, I.Value == Result<Int, any Error> {
    outer.flatten()
}

/// The class of the input.
private enum InputClass: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The core's `Future<Int, any Error>` itself.
    case future
    /// ``Subclass``.
    case subclass

    var testDescription: String { rawValue }
}

/// The value `made` completes with (waiting for it).
private func outcome(_ made: Future<Int, any Error>) -> Int? {
    try? made.forced().get()
}

/// Expects a request on the value `make` returns to reach `input` (pending, with another consumer) as one
/// consumer's ask: `input` is asked only once its other consumer has asked too.
private func expectARequestReachesTheInputAsOneConsumersAsk<T>(
    _ input: Future<T, any Error>, _ make: () -> Future<Int, any Error>,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let asked = Atomic<Int>(0)
    input.onCancellationRequested { asked.add(1, ordering: .relaxed) }
    let other = input.consumer()
    let made = make()
    made.requestCancellation()
    // Another consumer still waits: the made value's request is one ask, not a request.
    #expect(asked.load(ordering: .relaxed) == 0, sourceLocation: sourceLocation)
    other.requestCancellation()
    // Every consumer has asked now.
    #expect(asked.load(ordering: .relaxed) == 1, sourceLocation: sourceLocation)
    withExtendedLifetime(made) {}
}

/// Whether `value` is an instance of `C` (or of a subclass).
private func isInstance<C>(_ value: Any, of _: C.Type) -> Bool {
    value is C
}

@Suite("BrightFutures: AsyncType's linked members on a core future and on a subclass", .hangGuard())
struct AsyncTypeLinkingTests {
    @Test(arguments: Combinator.allCases, InputClass.allCases)
    fileprivate func aSelfReturningMemberKeepsTheLink(_ combinator: Combinator, _ inputClass: InputClass) {
        switch inputClass {
        case .future: expectLinked(combinator, Future<Int, any Error>.self)
        case .subclass: expectLinked(combinator, Subclass<Int>.self)
        }
    }

    @Test(arguments: InputClass.allCases)
    fileprivate func flattenKeepsTheLink(_ inputClass: InputClass) {
        switch inputClass {
        case .future: expectFlattenLinked(Future<Future<Int, any Error>, any Error>.self, Future<Int, any Error>.self)
        case .subclass: expectFlattenLinked(Subclass<Subclass<Int>>.self, Subclass<Int>.self)
        }
    }

    /// `combinator` on an input of class `F`: pending, then completed; already completed.
    private func expectLinked<F: Future<Int, any Error>>(
        _ combinator: Combinator, _: F.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        // A pending input that succeeds later.
        let later = pending(F.self)
        let madeLater = combinator.call(later.value)
        #expect(isInstance(madeLater, of: F.self), "\(type(of: madeLater))", sourceLocation: sourceLocation)
        later.complete(.success(1))
        #expect(outcome(madeLater) == 1, sourceLocation: sourceLocation)
        // An input that has succeeded already.
        let done = pending(F.self)
        done.complete(.success(2))
        let madeNow = combinator.call(done.value)
        #expect(isInstance(madeNow, of: F.self), "\(type(of: madeNow))", sourceLocation: sourceLocation)
        #expect(outcome(madeNow) == 2, sourceLocation: sourceLocation)
        // A request on the value made from a pending input.
        let input = pending(F.self)
        expectARequestReachesTheInputAsOneConsumersAsk(
            input.value as Future<Int, any Error>, { combinator.call(input.value) }, sourceLocation: sourceLocation)
        input.complete(.success(0))
    }

    /// `flatten` on an outer value of class `Outer` whose inner values are of class `Inner`: the outer one
    /// pending, then completed; already completed.
    private func expectFlattenLinked<Inner: Future<Int, any Error>, Outer: Future<Inner, any Error>>(
        _: Outer.Type, _: Inner.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let inner = pending(Inner.self)
        inner.complete(.success(3))
        // A pending outer value that succeeds later.
        let later = pending(Outer.self)
        let madeLater = flattened(later.value)
        later.complete(.success(inner.value))
        #expect(outcome(madeLater) == 3, sourceLocation: sourceLocation)
        // An outer value that has succeeded already.
        let done = pending(Outer.self)
        done.complete(.success(inner.value))
        #expect(outcome(flattened(done.value)) == 3, sourceLocation: sourceLocation)
        // A request on the value made from a pending outer value.
        let outer = pending(Outer.self)
        expectARequestReachesTheInputAsOneConsumersAsk(
            outer.value as Future<Inner, any Error>, { flattened(outer.value) }, sourceLocation: sourceLocation)
        outer.complete(.success(inner.value))
    }
}
