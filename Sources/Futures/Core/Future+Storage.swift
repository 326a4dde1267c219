import Synchronization

/// The storage of a future's ``FutureState``: 17 raw bytes in the cell.
///
/// A stored `FutureState<T, E>` field made every deallocation look the enum's metadata up in the
/// runtime's cache (`swift_getGenericMetadata`, about 320 instructions per future, a third of a
/// one-map chain): the field's destruction in a generic class's `deinit` needs the layout of the enum,
/// which depends on `T` and `E`. So the cell stores the state by hand instead:
///
/// | state | `words` hold | tag bits (`Representation`) |
/// |---|---|---|
/// | `pending(list)` | the `CallbackList` (fixed layout, 17 bytes) | none |
/// | `completed(.success(v))` | `v` | `completed` |
/// | `completed(.failure(e))` | `e` | `completed`, `failure` |
/// | `completedWithLate(late)` | the `LateCallbacks` reference | `completed`, `late` |
///
/// `deinit` destroys the stored value with only `T`'s or `E`'s metadata, which the class metadata holds.
/// When `T` or `E` does not fit in 17 bytes (or needs more than 8-byte alignment) the words hold a
/// `StateBox` with an ordinary `FutureState` field instead: one more allocation per future of such a
/// type, and its deallocation pays the look-up as before.
///
/// Code reads and writes the state through ``Future/withState(_:)``, which moves the enum out of the words
/// and back (bitwise moves: no retain, no release), so it must never be nested (no access to the state
/// while another is in progress). Every access is one expression under the future's lock.
///
/// ## Settled futures
/// A future is *settled* once it is completed, its value or error is in the words (not `late`), and no
/// hand-out is in progress (`Flags.handingOut` clear). From then on nothing writes the words again until
/// `deinit`: the state machine leaves a completed state as it is unless a hand-out is in progress
/// (`FutureState.register` moves to `completedWithLate` only then, and only `complete` starts a
/// hand-out, once), and ``Future/withState(_:)`` works on a copy instead of moving the state out and
/// back. So a settled success can be read without the lock (``Future/settledValueWithoutLock()``, used by
/// `result` and by combinators' fast path): one acquiring load of the flags, then a copy of the value.
/// Every store of the flags releases, and the store that makes a future settled is one store
/// (``Future/publishCompletion(failed:handingOut:)``, or the clearing of `handingOut` at the end of a
/// hand-out) made after the words were written, so a reader that sees the settled bits sees the value.
/// A settled failure is still read under the lock, which marks it observed (unobserved failures).
@usableFromInline
typealias StateWords = (UInt, UInt, UInt8)

/// The state of a future whose value or error does not fit in ``StateWords``.
@usableFromInline
final class StateBox<T: Sendable, E: Error> {
    @usableFromInline var state: FutureState<T, E>

    @inlinable
    init(_ state: FutureState<T, E>) {
        self.state = state
    }
}

extension Future {
    /// The tag bits of ``words`` in ``flags`` (above the bits of `Flags`). Unused when the state is boxed.
    @usableFromInline
    enum Representation {
        @usableFromInline static var completed: UInt16 { 256 }
        @usableFromInline static var failure: UInt16 { 512 }
        @usableFromInline static var late: UInt16 { 1024 }
        @usableFromInline static var mask: UInt16 { 256 | 512 | 1024 }
        /// Beside the tag (not in ``mask``): the words hold a completed value or error of a trivial type
        /// (`Int`, `Never`, an enum without payloads), which needs no destruction. Set with the tag, so
        /// that `deinit` (unspecialised) can skip ``Future/destroyState()`` without reading `T`'s or
        /// `E`'s metadata.
        @usableFromInline static var trivialPayload: UInt16 { @inline(__always) get { 2048 } }
    }

    /// Whether the state lives in a ``StateBox`` because `T` or `E` does not fit in the words. A constant
    /// in specialised code; in unspecialised code (`deinit`) it reads `T`'s and `E`'s value witnesses.
    @inlinable
    static var boxesState: Bool {
        let size = MemoryLayout<StateWords>.size
        let alignment = MemoryLayout<StateWords>.alignment
        return MemoryLayout<T>.size > size || MemoryLayout<T>.alignment > alignment
            || MemoryLayout<E>.size > size || MemoryLayout<E>.alignment > alignment
            || MemoryLayout<CallbackList<T, E>>.size > size
            || MemoryLayout<CallbackList<T, E>>.alignment > alignment
    }

    /// The flag and tag bits that decide whether a future is settled (see *Settled futures*).
    @inlinable
    static var settledMask: UInt16 { Flags.completed | Flags.handingOut | Representation.mask }
    /// The bits of a settled success under ``settledMask``.
    @inlinable
    static var settledSuccess: UInt16 { Flags.completed | Representation.completed }
    /// The bits of a settled failure under ``settledMask``.
    @inlinable
    static var settledFailure: UInt16 { Flags.completed | Representation.completed | Representation.failure }

    /// Marks the future completed, after the words were written: one releasing store of the flags that
    /// sets `completed`, `failed` and `handingOut` together, so no reader sees a settled future that is
    /// about to hand out. Under the lock.
    @inlinable
    @inline(__always)
    func publishCompletion(failed: Bool, handingOut: Bool) {
        var bits = flags | Flags.completed
        bits = failed ? bits | Flags.failed : bits & ~Flags.failed
        if handingOut { bits |= Flags.handingOut }
        flags = bits
    }

    /// Whether `bits` (the flags, loaded acquiring) say a settled success, readable without the lock.
    @inlinable
    @inline(__always)
    static func isSettledSuccess(_ bits: UInt16) -> Bool {
        !boxesState && bits & settledMask == settledSuccess
    }

    /// A copy of a settled future's value or error, `V` being `T` or `E` as the tag bits say (the caller
    /// checked them). The words never change again (see *Settled futures*), so this needs no lock: they
    /// are copied as plain words, then the value is copied out of that copy (retaining what it references).
    @inlinable
    @inline(__always)
    func settledPayload<V>(as type: V.Type) -> V {
        let copy = words
        return withUnsafeBytes(of: copy) { $0.load(as: V.self) }
    }

    /// The value of a settled success, read without the lock; `nil` for any other future (pending,
    /// failed, handing out, boxed), which the caller then reads under the lock.
    @inlinable
    @inline(__always)
    func settledValueWithoutLock() -> T? {
        guard Self.isSettledSuccess(flagWord.load(ordering: .acquiring)) else { return nil }
        return settledPayload(as: T.self)
    }

    /// Runs `body` on the state machine and returns what it returns. Guarded by `lock`; never nested (see
    /// ``StateWords``).
    ///
    /// A settled future's state is not moved out and back but copied, and nothing is written: readers
    /// without the lock may be copying the words (see *Settled futures*). The state machine leaves a
    /// settled state as it is (checked in debug builds).
    ///
    /// A function taking a closure, not a `_read`/`_modify` accessor: in unspecialised code (the
    /// library's own generic code, such as the limiter) a coroutine accessor allocates its frame on the
    /// heap, because the enum's size depends on `T` and `E`; a function keeps it on the stack.
    @inlinable
    @inline(__always)
    func withState<R>(_ body: (inout FutureState<T, E>) -> R) -> R {
        if Self.boxesState {
            let box = stateBox
            return body(&box.state)
        }
        let bits = flags & Self.settledMask
        if bits == Self.settledSuccess || bits == Self.settledFailure {
            var settled = FutureState<T, E>.completed(
                bits == Self.settledSuccess
                    ? .success(settledPayload(as: T.self)) : .failure(settledPayload(as: E.self)))
            let outcome = body(&settled)
            assert(Self.isCompleted(settled), "a settled future's state machine left its completed state")
            return outcome
        }
        var state = takeState()
        let outcome = body(&state)
        putState(consume state)
        return outcome
    }

    /// Stores `entry` as the only entry of a pending future whose list is empty, in the words themselves:
    /// what ``FutureState/register(_:handingOut:)`` does in that state, without moving the state out of the
    /// words and back. Returns `false`, leaving `entry` as it is, in any other state (boxed, completed, a
    /// list that holds something). Guarded by `lock`.
    @inlinable
    @inline(__always)
    func storeFirstEntryInPlace(_ entry: inout Callback<T, E>?) -> Bool {
        guard !Self.boxesState, flags & (Representation.mask | Flags.tallied) == 0 else { return false }
        return withWords { words in
            let list = words.bindMemory(to: CallbackList<T, E>.self, capacity: 1)
            guard case .empty = list.pointee else { return false }
            // `.empty` holds nothing, so the words are overwritten without destroying it first.
            list.initialize(to: .one(entry.take()!))
            return true
        }
    }

    @inlinable
    static func isCompleted(_ state: FutureState<T, E>) -> Bool {
        if case .completed = state { return true }
        return false
    }

    /// A copy of the state machine, for tests and diagnostics. Guarded by `lock`.
    @inlinable
    var state: FutureState<T, E> { withState { $0 } }

    /// The address of ``words``. A final class's stored property without observers is accessed in place,
    /// so the pointer is the field itself; it is used only within `body`.
    @inlinable
    @inline(__always)
    @discardableResult
    func withWords<R>(_ body: (UnsafeMutableRawPointer) -> R) -> R {
        withUnsafeMutablePointer(to: &words) { body(UnsafeMutableRawPointer($0)) }
    }

    @inlinable
    var stateBox: StateBox<T, E> {
        withWords { $0.load(as: StateBox<T, E>.self) }
    }

    /// Stores the initial state (the words are zero and hold nothing yet).
    @inlinable
    func initializeState(_ state: consuming FutureState<T, E>) {
        if Self.boxesState {
            let box = StateBox(state)
            withWords { $0.initializeMemory(as: StateBox<T, E>.self, repeating: box, count: 1) }
        } else {
            putState(consume state)
        }
    }

    /// Moves the state out of the words, which then hold nothing until ``putState(_:)``.
    @inlinable
    @inline(__always)
    func takeState() -> FutureState<T, E> {
        let tag = flags & Representation.mask
        return withWords { words in
            if tag == 0 {
                return .pending(words.bindMemory(to: CallbackList<T, E>.self, capacity: 1).move())
            }
            if tag & Representation.late != 0 {
                return .completedWithLate(words.bindMemory(to: LateCallbacks<T, E>.self, capacity: 1).move())
            }
            if tag & Representation.failure != 0 {
                return .completed(.failure(words.bindMemory(to: E.self, capacity: 1).move()))
            }
            return .completed(.success(words.bindMemory(to: T.self, capacity: 1).move()))
        }
    }

    /// Moves `state` into the words (which hold nothing) and sets the tag bits.
    @inlinable
    @inline(__always)
    func putState(_ state: consuming FutureState<T, E>) {
        let tag: UInt16
        switch consume state {
        case .pending(let list):
            withWords { $0.initializeMemory(as: CallbackList<T, E>.self, repeating: list, count: 1) }
            tag = 0
        case .completed(.success(let value)):
            withWords { $0.initializeMemory(as: T.self, repeating: value, count: 1) }
            tag = Representation.completed | (_isPOD(T.self) ? Representation.trivialPayload : 0)
        case .completed(.failure(let error)):
            withWords { $0.initializeMemory(as: E.self, repeating: error, count: 1) }
            tag =
                Representation.completed | Representation.failure
                | (_isPOD(E.self) ? Representation.trivialPayload : 0)
        case .completedWithLate(let late):
            withWords { $0.initializeMemory(as: LateCallbacks<T, E>.self, repeating: late, count: 1) }
            tag = Representation.completed | Representation.late
        }
        flags = (flags & ~(Representation.mask | Representation.trivialPayload)) | tag
    }

    // MARK: - Deallocation (unspecialised: only `T`'s and `E`'s metadata, from the class metadata)

    /// Destroys what the words hold. Called last in `deinit`. The tag decides without any layout
    /// computation; a trivial value or error (`Int`, `Never`, …) needs no destruction at all.
    @usableFromInline
    func destroyState() {
        let tag = flags & Representation.mask
        if tag == Representation.completed {
            if _isPOD(T.self) { return }
            withWords { $0.bindMemory(to: T.self, capacity: 1).deinitialize(count: 1) }
        } else if tag == Representation.completed | Representation.failure {
            if _isPOD(E.self) { return }
            withWords { $0.bindMemory(to: E.self, capacity: 1).deinitialize(count: 1) }
        } else if tag != 0 {
            withWords { $0.bindMemory(to: LateCallbacks<T, E>.self, capacity: 1).deinitialize(count: 1) }
        } else if Self.boxesState {
            // A boxed state never sets the tag bits.
            withWords { $0.bindMemory(to: StateBox<T, E>.self, capacity: 1).deinitialize(count: 1) }
        } else {
            withWords { $0.bindMemory(to: CallbackList<T, E>.self, capacity: 1).deinitialize(count: 1) }
        }
    }

    /// Takes the pending list of a future being deallocated while pending, leaving an empty one.
    func takePendingListForDeinit() -> CallbackList<T, E> {
        if Self.boxesState { return stateBox.state.takePendingList() }
        guard flags & Representation.mask == 0 else { return .empty }
        return withWords { words in
            let list = words.bindMemory(to: CallbackList<T, E>.self, capacity: 1)
            let taken = list.move()
            list.initialize(to: .empty)
            return taken
        }
    }

    /// The error of a future being deallocated after failing.
    func failureForDeinit() -> E? {
        if Self.boxesState {
            if case .failure(let error)? = stateBox.state.result { return error }
            return nil
        }
        let tag = flags & Representation.mask
        guard tag & Representation.completed != 0, tag & Representation.late == 0,
            tag & Representation.failure != 0
        else { return nil }
        return withWords { $0.bindMemory(to: E.self, capacity: 1).pointee }
    }
}
