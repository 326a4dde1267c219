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
    public static func race(
        _ futures: Future<T, E>..., file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, E> {
        race(futures, file: file, line: line)
    }

    /// A future of the first of `futures` to succeed; the others are then asked to cancel.
    ///
    /// See the variadic `race(_:)` for success, failure, cancellation and the empty case.
    public static func race(
        _ futures: some Sequence<Future<T, E>>, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, E> {
        let inputs = Array(futures)
        if let empty = emptyInputFailure(inputs, operation: "race") { return empty }
        return Gatherer<OneValue<T>, E>.start(inputs, mode: .firstSuccess, step: "race", file: file, line: line).future
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
    public func firstCompleted<T, E>(
        cancellingOthers: Bool, file: StaticString = #fileID, line: UInt = #line
    ) -> Future<T, E> where Element == Future<T, E> {
        let inputs = Array(self)
        if let empty = Future<T, E>.emptyInputFailure(inputs, operation: "firstCompleted") { return empty }
        return Gatherer<OneValue<T>, E>.start(
            inputs, mode: .first(cancellingOthers: cancellingOthers), step: "firstCompleted", file: file, line: line
        ).future
    }
}
