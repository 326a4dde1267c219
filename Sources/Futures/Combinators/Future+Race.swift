import Synchronization

extension Future {
    /// A future of the first of `futures` to **succeed**; the others are then asked to cancel.
    ///
    /// ```swift
    /// let fastest = Future.race(mirrorA.download(file), mirrorB.download(file))
    /// ```
    ///
    /// - Success: the first success. Every other input that is still pending then gets
    ///   ``requestCancellation()``: the inputs are handed to the race, so use it on futures you own (a
    ///   request on the race's own future, by contrast, reaches each input as one of its consumers).
    /// - Failure: only when every input has failed, with the failure of the first input in argument
    ///   order (deterministic whatever the timing).
    /// - Cancellation: a request on the returned future is passed on to every pending input, as one of its
    ///   consumers.
    /// - No inputs: fails with ``FuturesError/noSuchElement`` when the failure type can hold it; for
    ///   other failure types it is a programmer error and traps (a race with no runner cannot finish).
    ///
    /// The result is delivered on the thread that completed the deciding input.
    public static func race(_ futures: Future<T, E>...) -> Future<T, E> {
        race(futures)
    }

    /// A future of the first of `futures` to succeed; the others are then asked to cancel.
    ///
    /// See the variadic `race(_:)` for success, failure, cancellation and the empty case.
    public static func race(_ futures: some Sequence<Future<T, E>>) -> Future<T, E> {
        let inputs = Array(futures)
        if let empty = emptyInputFailure(inputs, operation: "race") { return empty }
        let winner = Future<T, E>()
        let failures = FailureSlots<E>(count: inputs.count)
        let weakInputs = inputs.map { WeakFuture($0) }
        let outcome = OneOutcome()
        for (index, input) in inputs.enumerated() {
            winner.depend(on: input, link: .gathered) { result in
                switch result {
                case .success:
                    // Asks the losers first, then completes: code that reacts to the winner runs after.
                    guard outcome.claim() else { return }
                    cancelAll(weakInputs, except: index)
                    winner.complete(result)
                case .failure(let error):
                    if let first = failures.store(error, at: index), outcome.claim() {
                        winner.complete(.failure(first))
                    }
                }
            }
        }
        return winner
    }

    /// The future for an empty input list: failed with `noSuchElement` if `E` can hold it, else a trap.
    static func emptyInputFailure(_ inputs: [Future<T, E>], operation: StaticString) -> Future<T, E>? {
        guard inputs.isEmpty else { return nil }
        guard let error = FuturesError.noSuchElement as? E else {
            preconditionFailure("Futures: \(operation) needs at least one future; \(E.self) cannot express 'no input'")
        }
        return Future(error: error)
    }
}

extension Sequence {
    /// A future of the first of these futures to complete, success or failure; with
    /// `cancellingOthers: true` every other pending future is then asked to cancel.
    ///
    /// BrightFutures' `firstCompleted()` never cancels anything (its inputs may be shared); this labelled
    /// variant is for futures you own, such as redundant requests where only the first answer matters.
    ///
    /// - Result: the first result to arrive (if several inputs are already completed, the first in
    ///   order). With `cancellingOthers`, the others then get ``Future/requestCancellation()`` (pass
    ///   futures you own).
    /// - Cancellation: a request on the returned future is passed on to every pending input, as one of its
    ///   consumers.
    /// - No inputs: fails with ``FuturesError/noSuchElement`` when the failure type can hold it, else
    ///   traps (a programmer error).
    ///
    /// The result is delivered on the thread that completed the first input.
    public func firstCompleted<T, E>(cancellingOthers: Bool) -> Future<T, E> where Element == Future<T, E> {
        let inputs = Array(self)
        if let empty = Future<T, E>.emptyInputFailure(inputs, operation: "firstCompleted") { return empty }
        let first = Future<T, E>()
        let weakInputs = inputs.map { WeakFuture($0) }
        let outcome = OneOutcome()
        for (index, input) in inputs.enumerated() {
            first.depend(on: input, link: .gathered) { result in
                // The first result decides; the others are asked before it is delivered (a loser that
                // fails at once when asked cannot take its place).
                guard outcome.claim() else { return }
                if cancellingOthers { cancelAll(weakInputs, except: index) }
                first.complete(result)
            }
        }
        return first
    }
}

/// Requests cancellation of every input but the one at `winner` (the inputs were handed over).
private func cancelAll<T, E>(_ inputs: [WeakFuture<T, E>], except winner: Int) {
    for (index, input) in inputs.enumerated() where index != winner {
        // An explicit request: passing futures to `race` (or `firstCompleted(cancellingOthers: true)`) hands
        // them over, so the losers' work stops even if someone else observes them (e.g. awaits the loser
        // to see how it ended); asking as one consumer would make that outcome depend on timing.
        input.future?.requestCancellation()
    }
}

/// Decides a gatherer's outcome once: the first caller of ``claim()`` completes the output.
final class OneOutcome: Sendable {
    private let decided = Atomic<Bool>(false)

    /// `true` for the first caller only.
    func claim() -> Bool {
        !decided.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// A weak reference to a future, for cancellation forwarding that must not keep inputs alive.
struct WeakFuture<T: Sendable, E: Error>: Sendable {
    weak var future: Future<T, E>?

    init(_ future: Future<T, E>) {
        self.future = future
    }
}

/// Collects failures by position; hands back the first in order once every slot has failed.
final class FailureSlots<E: Error>: Sendable {
    private let lock = ParkingLock()
    // `nonisolated(unsafe)`: only read and written between `lock.lock()` and `lock.unlock()`.
    nonisolated(unsafe) private var errors: [E?]
    nonisolated(unsafe) private var missing: Int

    init(count: Int) {
        self.errors = Array(repeating: nil, count: count)
        self.missing = count
    }

    /// Records the failure at `slot`; returns the first failure in order once all have failed.
    func store(_ error: E, at slot: Int) -> E? {
        lock.lock()
        defer { lock.unlock() }
        errors[slot] = error
        missing -= 1
        return missing == 0 ? errors[0] : nil
    }
}
