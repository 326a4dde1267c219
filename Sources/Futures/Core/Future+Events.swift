// The cell's two hot events, each a function of its own: the registration and the completion.
//
// A critical region written as a closure literal (`withCellLocked { … }`) is compiled as a function of its
// own, which the optimiser inlines only when it finds it small enough; these two were not, and each call
// then paid for the call and its captured context (about a tenth of a pending chain's instructions). A
// named function marked `@inline(__always)`, passed by name with its input, is inlined into the region, so
// the hot paths keep the shape of every region (the event decides under the lock and returns an action;
// the caller acts after it) at the cost of the code written out by hand.

extension Future {
    /// The cell's critical region for a named event that takes its input in place: runs
    /// `event(self, &argument)` under the lock and returns what it returns (see ``withCellLocked(_:)``).
    ///
    /// For the hot paths: `event` is a function marked `@inline(__always)`, passed by name, which the
    /// optimiser then inlines into the region (a closure literal's body it may not).
    @inlinable
    @inline(__always)
    final func withCellLocked<Argument, R>(
        _ argument: inout Argument, _ event: (Future<T, E>, inout Argument) -> R
    ) -> R {
        withCellLocked { event(self, &argument) }
    }

    /// The cell's critical region for a named event that reads its input: runs `event(self, argument)`
    /// under the lock and returns what it returns (see ``withCellLocked(_:_:)``).
    @inlinable
    @inline(__always)
    final func withCellLocked<Argument, R>(
        reading argument: Argument, _ event: (Future<T, E>, Argument) -> R
    ) -> R {
        withCellLocked { event(self, argument) }
    }
}

/// ``Future/whenComplete(_:_:)``'s event, in the critical region: moves `entry` into the state machine and
/// returns what to do after the region, with the registration's facts.
@inlinable
@inline(__always)
func registerEvent<T, E>(
    _ cell: Future<T, E>, _ entry: inout Callback<T, E>?
) -> (FutureState<T, E>.RegisterAction, Future<T, E>.Registration) {
    // The first entry of a pending future (the common case: one callback, one derived future) is stored
    // in place, as `register` stores it (`.pending(.empty)` becomes `.pending(.one(entry))`, `.stored`):
    // an empty list has no tally to count in.
    if cell.storeFirstEntryInPlace(&entry) {
        cell.observed = true
        return (.stored, cell.registrationFacts())
    }
    let action = cell.withState { $0.register(entry.take()!, handingOut: cell.handingOut) }
    cell.observed = true
    if cell.tallied, !cell.completed { cell.countConsumer() }
    return (consume action, cell.registrationFacts())
}

/// ``Future/complete(_:)``'s event, in the critical region: stores `result` in the state machine, publishes
/// the completion in the flags, and returns what to do after the region.
@inlinable
@inline(__always)
func completeEvent<T, E>(_ cell: Future<T, E>, _ result: Result<T, E>) -> FutureState<T, E>.CompleteAction {
    let isFailure: Bool
    if case .failure = result { isFailure = true } else { isFailure = false }
    let action = cell.withState { $0.complete(result) }
    switch action {
    case .alreadyCompleted: break
    case .completed: cell.publishCompletion(failed: isFailure, handingOut: false)
    case .run(_, let handsOut): cell.publishCompletion(failed: isFailure, handingOut: handsOut)
    }
    return consume action
}
