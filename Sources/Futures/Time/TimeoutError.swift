/// The failure of a typed future given a deadline with
/// ``Future/timeout(after:clock:file:line:)->Future<T,TimeoutError<E>>``: either it timed out, or the future
/// itself failed with `failure`.
public enum TimeoutError<Failure: Error>: Error {
    /// The deadline passed before the future completed.
    case timedOut
    /// The future failed before the deadline with this error.
    case failure(Failure)
}

extension TimeoutError: Equatable where Failure: Equatable {}
