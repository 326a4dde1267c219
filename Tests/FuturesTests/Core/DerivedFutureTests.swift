import Testing

@testable import Futures

/// The futures the unary combinators derive from a pending future, one of each class: a step
/// (`filter`), the caller's value-returning closure (`map`, `flatMap` to a `Result`, `mapError`, `recover`),
/// the caller's future-returning closure (`flatMap`, `recoverWith`) and the caller's callback (`andThen`).
@Suite("DerivedFuture: the futures derived on the pending path")
struct DerivedFutureTests {
    enum Failure: Error, Equatable { case one }

    static func derived(from source: Future<Int, Failure>) -> [Future<Int, Failure>] {
        let context = immediateExecutionContext
        return [
            source.map(context) { $0 + 1 },
            source.flatMap(context) { Future(value: $0 + 1) },
            source.flatMap(context) { value -> Result<Int, Failure> in .success(value + 1) },
            source.mapError(context) { $0 },
            source.recover(context: context) { _ in 0 }.promoteError(),
            source.recoverWith(context: context) { _ in Future<Int, Failure>(value: 0) },
            source.andThen(context: context) { _ in },
            source.filter { _ in true }.mapError(context) { _ in Failure.one },
        ]
    }

    /// Generic code that makes a future of its input's own class (BrightFutures' `AsyncType` extensions
    /// do, with `Self { complete in … }`) gets, from a derived future, a future of the same class that its
    /// resolver completes, and that nothing else completes.
    @Test func aDerivedFutureMakesAFutureOfItsClassThatItsResolverCompletes() {
        let promise = Promise<Int, Failure>()
        let source = promise.future
        let context = immediateExecutionContext
        let inputs: [AnyObject] = [
            source.map(context) { $0 + 1 },
            source.flatMap(context) { Future(value: $0 + 1) },
            source.flatMap(context) { value -> Result<Int, Failure> in .success(value + 1) },
            source.mapError(context) { $0 },
            source.recover(context: context) { _ in 0 },
            source.recoverWith(context: context) { _ in Future<Int, Failure>(value: 0) },
            source.andThen(context: context) { _ in },
        ]
        var made: [AnyObject] = []
        for input in inputs {
            #expect(ObjectIdentifier(type(of: input)) != ObjectIdentifier(Future<Int, Failure>.self))
            let copy: AnyObject
            switch input {
            case let future as Future<Int, Failure>:
                copy = type(of: future).init(resolver: { complete in complete(.success(5)) })
                #expect((copy as? Future<Int, Failure>)?.result == .success(5))
            case let future as Future<Int, Never>:
                copy = type(of: future).init(resolver: { complete in complete(.success(5)) })
                #expect((copy as? Future<Int, Never>)?.result == .success(5))
            default:
                Issue.record("unexpected derived future \(type(of: input))")
                continue
            }
            #expect(ObjectIdentifier(type(of: copy)) == ObjectIdentifier(type(of: input)))
            made.append(copy)
        }
        promise.success(1)
        let results = inputs.map { input -> Int? in
            switch input {
            case let future as Future<Int, Failure>: try? future.result?.get()
            case let future as Future<Int, Never>: future.result?.get()
            default: nil
            }
        }
        #expect(results == [2, 2, 2, 1, 1, 1, 1])
        // The copies kept their own results: the source completed only the futures it derived.
        #expect(made.compactMap { ($0 as? Future<Int, Failure>)?.result } == Array(repeating: .success(5), count: 6))
    }

    /// Each derived future completes from its source once, with the combinator's outcome, whether the
    /// source succeeds or fails.
    @Test(arguments: [false, true])
    func aDerivedFutureCompletesWithItsCombinatorsOutcome(fails: Bool) {
        let promise = Promise<Int, Failure>()
        let derived = Self.derived(from: promise.future)
        #expect(derived.allSatisfy { $0.result == nil })
        if fails { promise.failure(.one) } else { promise.success(1) }
        let expected: [Result<Int, Failure>] =
            fails
            ? [
                .failure(.one), .failure(.one), .failure(.one), .failure(.one), .success(0), .success(0),
                .failure(.one), .failure(.one),
            ]
            : [.success(2), .success(2), .success(2), .success(1), .success(1), .success(1), .success(1), .success(1)]
        #expect(derived.map(\.result) == expected)
    }
}
